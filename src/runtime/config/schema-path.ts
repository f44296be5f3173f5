/**
 * Walks the config schema by dotted key: which keys exist at a level, what type a leaf has, and how
 * a command-line string becomes a value of that type.
 */
import type * as z from '../../protocol/zod';
import { ConfigError } from './errors';
import { ConfigSchema } from './schema';

type AnySchema = z.core.$ZodType;

interface SchemaDef {
  type: string;
  innerType?: AnySchema;
  in?: AnySchema;
  shape?: Record<string, AnySchema>;
  getter?: () => AnySchema;
  element?: AnySchema;
  options?: readonly AnySchema[];
  entries?: Record<string, string | number>;
}

function defOf(schema: AnySchema): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

/** Strip default/optional/prefault/pipe/lazy wrappers down to the schema that decides the value's type. */
export function unwrapSchema(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.innerType && ['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch'].includes(def.type)) {
      current = def.innerType;
    } else if (def.type === 'pipe' && def.in) {
      current = def.in;
    } else if (def.type === 'lazy' && def.getter) {
      current = def.getter();
    } else {
      return current;
    }
  }
}

export function keysOfObjectSchema(schema: AnySchema): string[] | undefined {
  const def = defOf(unwrapSchema(schema));
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((row[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, previous + cost);
      previous = saved;
    }
  }
  return row[b.length] ?? 0;
}

/** The known key closest to `wanted`, if it is close enough to be a likely typo. */
export function closestKey(wanted: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const key of known) {
    const distance = editDistance(wanted.toLowerCase(), key.toLowerCase());
    if (distance < bestDistance) {
      best = key;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(wanted.length / 3)) ? best : undefined;
}

export function splitDottedKey(dottedKey: string): string[] {
  const segments = dottedKey.split('.');
  if (dottedKey.trim() === '' || segments.some((s) => s.trim() === '')) {
    throw new ConfigError(`"${dottedKey}" is not a config key; write a dotted key such as "localrunner.model"`);
  }
  return segments;
}

/** The schema of a dotted key; an unknown key is an error listing the valid keys at that level. */
export function schemaAtKey(dottedKey: string): AnySchema {
  let schema: AnySchema = ConfigSchema;
  const segments = splitDottedKey(dottedKey);
  segments.forEach((segment, index) => {
    const parent = segments.slice(0, index).join('.');
    const keys = keysOfObjectSchema(schema);
    if (keys === undefined) {
      throw new ConfigError(`unknown config key "${dottedKey}": "${parent}" is a single value, not a section with keys`);
    }
    const shape = defOf(unwrapSchema(schema)).shape ?? {};
    const next = shape[segment];
    if (next === undefined) {
      const suggestion = closestKey(segment, keys);
      const level = parent === '' ? 'at the top level' : `in "${parent}"`;
      const hint = suggestion ? ` Did you mean "${[...segments.slice(0, index), suggestion].join('.')}"?` : '';
      throw new ConfigError(`unknown config key "${dottedKey}".${hint} Valid keys ${level}: ${keys.join(', ')}`);
    }
    schema = next;
  });
  return schema;
}

function tryJson(dottedKey: string, raw: string, example: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ConfigError(`"${dottedKey}" expects a JSON value such as ${example} (got ${JSON.stringify(raw)})`);
  }
}

/**
 * Turn the command-line text into a value of the key's type. Values that do not fit are passed on
 * as text so the schema reports them with its usual message.
 */
export function parseRawValue(dottedKey: string, schema: AnySchema, raw: string): unknown {
  const leaf = unwrapSchema(schema);
  const def = defOf(leaf);
  switch (def.type) {
    case 'number': {
      const value = raw.trim() === '' ? NaN : Number(raw);
      return Number.isFinite(value) ? value : raw;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'array':
      return tryJson(dottedKey, raw, '["Bash(npm run test:*)"]');
    case 'object':
    case 'record':
      return tryJson(dottedKey, raw, '{"model": "llama3.2"}');
    case 'union': {
      for (const option of def.options ?? []) {
        const candidate = parseRawValue(dottedKey, option, raw);
        if (!(option as z.ZodType).safeParse(candidate).success) continue;
        return candidate;
      }
      return raw;
    }
    case 'literal': {
      const number = Number(raw);
      return (leaf as z.ZodType).safeParse(number).success ? number : raw;
    }
    default:
      return raw;
  }
}
