import type * as z from '../../protocol/zod';
import { fixForConfigKey, type ErrorFix } from '../../protocol/errors';
import { SECRET_KEYS } from './schema';

/** A configuration problem; the message names the file (or variable), the dotted key and what was expected. */
export class ConfigError extends Error {
  constructor(
    message: string,
    /** The file or environment variable the bad value came from, when known. */
    readonly source?: string,
    /** The key to fix, for hosts that name their own setting. */
    readonly fix?: ErrorFix,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** `localrunner.temperature`, `permissions.allow[2]`. */
export function dottedPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}

function describeValue(value: unknown, secret: boolean): string {
  if (value === undefined) return 'nothing';
  if (secret) return typeof value === 'string' ? 'a hidden string' : `a ${Array.isArray(value) ? 'list' : typeof value}`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isSecretPath(path: readonly PropertyKey[]): boolean {
  const last = path[path.length - 1];
  return typeof last === 'string' && (SECRET_KEYS as readonly string[]).includes(last);
}

/**
 * One line per issue: `<source>: "<dotted.key>" <expectation> (got <value>)`.
 * `sourceOf` lets the caller name an environment variable instead of the file for some keys.
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  sourceOf: (path: readonly PropertyKey[]) => string,
): string {
  const lines = issues.map((issue) => {
    const path = issue.path;
    const got = describeValue(valueAt(input, path), isSecretPath(path));
    const key = path.length === 0 ? 'the config' : `"${dottedPath(path)}"`;
    return `${sourceOf(path)}: ${key} ${issue.message} (got ${got})`;
  });
  return lines.join('\n');
}

export function configErrorFromIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  sourceOf: (path: readonly PropertyKey[]) => string,
): ConfigError {
  const first = issues[0];
  const fix = first && first.path.length > 0 ? fixForConfigKey(dottedPath(first.path)) : undefined;
  return new ConfigError(describeIssues(issues, input, sourceOf), first ? sourceOf(first.path) : undefined, fix);
}
