import { uniqueSuffix } from '../unique-id';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError, configErrorFromIssues } from './errors';
import { LOCALRUNNER_PRESETS, LOCALRUNNER_PRESET_NAMES, type LocalRunnerPresetName } from './presets';
import { isJsonObject, parseConfigText, type JsonObject } from './read-file';
import { ConfigSchema } from './schema';
import { parseRawValue, schemaAtKey, splitDottedKey } from './schema-path';

async function readRawFile(file: string): Promise<{ data: JsonObject; mode?: number }> {
  try {
    const [text, stat] = await Promise.all([fs.promises.readFile(file, 'utf8'), fs.promises.stat(file)]);
    return { data: parseConfigText(file, text), mode: stat.mode & 0o777 };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: {} };
    throw new ConfigError(`${file}: cannot read the config file (${(error as Error).message})`, file);
  }
}

/** Write JSON through a temporary file and a rename, so a crash never leaves half a config. */
export async function writeJsonFileAtomic(file: string, data: JsonObject, mode = 0o600): Promise<void> {
  let target = file;
  try {
    target = await fs.promises.realpath(file);
  } catch {
    // New file (or dangling link): write at the given path.
  }
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${uniqueSuffix()}.tmp`);
  const handle = await fs.promises.open(temp, 'wx', mode);
  try {
    await handle.writeFile(`${JSON.stringify(data, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.promises.rename(temp, target);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw new ConfigError(`${file}: cannot write the config file (${(error as Error).message})`, file);
  }
}

/**
 * Read the file as it is (references like `${env:VENDORAPI_API_KEY}` and unknown keys stay
 * untouched), apply `change`, validate the whole result, and write it atomically.
 */
export async function updateConfigFile(file: string, change: (data: JsonObject) => JsonObject): Promise<void> {
  const { data, mode } = await readRawFile(file);
  const next = change(structuredClone(data));
  const result = ConfigSchema.safeParse(next);
  if (!result.success) throw configErrorFromIssues(result.error.issues, next, () => file);
  await writeJsonFileAtomic(file, next, mode);
}

function setAtPath(file: string, data: JsonObject, segments: readonly string[], value: unknown): void {
  let node = data;
  segments.slice(0, -1).forEach((segment, index) => {
    const child = node[segment];
    if (child === undefined) {
      node[segment] = {};
    } else if (!isJsonObject(child)) {
      const key = segments.slice(0, index + 1).join('.');
      throw new ConfigError(`${file}: "${key}" holds ${JSON.stringify(child)}, not an object; fix or remove it first`, file);
    }
    node = node[segment] as JsonObject;
  });
  const last = segments[segments.length - 1];
  if (last !== undefined) node[last] = value;
}

/**
 * `config set`: parse `rawValue` by the schema type at `dottedKey`, validate the whole file, write
 * atomically. `localrunner.preset` also sets `numCtx` and `keepAlive` from the preset table.
 */
export async function setConfigValue(file: string, dottedKey: string, rawValue: string): Promise<void> {
  const schema = schemaAtKey(dottedKey);
  const segments = splitDottedKey(dottedKey);
  const value = parseRawValue(dottedKey, schema, rawValue);
  if (dottedKey === 'localrunner.preset' && !(LOCALRUNNER_PRESET_NAMES as readonly unknown[]).includes(value)) {
    const known = LOCALRUNNER_PRESET_NAMES.map((name) => `${name} (${LOCALRUNNER_PRESETS[name].description})`);
    throw new ConfigError(`unknown localrunner preset ${JSON.stringify(rawValue)}; presets: ${known.join(', ')}`);
  }
  await updateConfigFile(file, (data) => {
    setAtPath(file, data, segments, value);
    if (dottedKey === 'localrunner.preset') {
      const preset = LOCALRUNNER_PRESETS[value as LocalRunnerPresetName];
      setAtPath(file, data, ['localrunner', 'numCtx'], preset.numCtx);
      setAtPath(file, data, ['localrunner', 'keepAlive'], preset.keepAlive);
    }
    return data;
  });
}

/**
 * The value at a dotted key of a loaded config (undefined when not set). A key the schema does not
 * know is an error with a suggestion, unless the config holds it (unknown keys are kept).
 */
export function getConfigValue(config: object, dottedKey: string): unknown {
  const segments = splitDottedKey(dottedKey);
  let node: unknown = config;
  let present = true;
  for (const segment of segments) {
    if (isJsonObject(node) && Object.hasOwn(node, segment)) {
      node = node[segment];
    } else {
      present = false;
      break;
    }
  }
  if (present) return node;
  schemaAtKey(dottedKey);
  return undefined;
}
