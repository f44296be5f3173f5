import { isJsonObject, type JsonObject } from './read-file';

/** Lists that accumulate across config layers instead of being replaced. */
const CONCATENATED_LISTS = new Set([
  'permissions.allow',
  'permissions.ask',
  'permissions.deny',
  'permissions.additionalDirectories',
]);

/**
 * Deep merge of config layers: objects merge key by key, later layers win for plain values,
 * permission rule lists are concatenated (duplicates dropped). Inputs are not modified.
 */
export function mergeConfigLayers(base: JsonObject, over: JsonObject, prefix = ''): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const dotted = prefix === '' ? key : `${prefix}.${key}`;
    const current = out[key];
    if (isJsonObject(current) && isJsonObject(value)) {
      out[key] = mergeConfigLayers(current, value, dotted);
    } else if (CONCATENATED_LISTS.has(dotted) && Array.isArray(current) && Array.isArray(value)) {
      out[key] = [...new Set([...current, ...value])];
    } else if (prefix === 'hooks' && Array.isArray(current) && Array.isArray(value)) {
      out[key] = [...current, ...value]; // the user's hooks and the project's both run
    } else if (value !== undefined) {
      out[key] = value;
    }
  }
  return out;
}
