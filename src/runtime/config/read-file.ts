import * as fs from 'node:fs';
import { ConfigError } from './errors';
import { findJsonSyntaxProblem } from './json-syntax';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parse config text; a syntax error names the file, line and column. */
export function parseConfigText(file: string, rawText: string): JsonObject {
  const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText;
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const found = findJsonSyntaxProblem(text);
    const where = found ? `line ${found.line}, column ${found.column}: ${found.problem}` : (error as Error).message;
    throw new ConfigError(`${file}: invalid JSON at ${where}`, file);
  }
  if (!isJsonObject(value)) {
    throw new ConfigError(`${file}: the config must be a JSON object such as {"provider": "serviceai"}`, file);
  }
  return value;
}

/** Read a config file; undefined when it does not exist. */
export function readConfigFile(file: string): JsonObject | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError(`${file}: cannot read the config file (${(error as Error).message})`, file);
  }
  return parseConfigText(file, text);
}
