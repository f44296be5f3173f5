import { ConfigError } from './errors';
import { SECRET_KEYS } from './schema';
import { isJsonObject, type JsonObject } from './read-file';

/** `${env:NAME}` or `$NAME` as the whole value. */
const ENV_REFERENCE = /^(?:\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*))$/;

/** The variable a value refers to (`${env:VENDORAPI_API_KEY}` or `$VENDORAPI_API_KEY`), if it is a reference. */
export function envReferenceName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ENV_REFERENCE.exec(value.trim());
  return match ? (match[1] ?? match[2]) : undefined;
}

export function isSecretKey(key: string): boolean {
  return (SECRET_KEYS as readonly string[]).includes(key);
}

/**
 * Replace environment references in secret fields (`apiKey`, `clientSecret`) of every provider
 * section by the variable's value. Returns a new object; a missing variable is an error naming it.
 */
export function resolveSecretReferences(config: JsonObject, env: NodeJS.ProcessEnv): JsonObject {
  const out: JsonObject = { ...config };
  for (const [section, settings] of Object.entries(config)) {
    if (!isJsonObject(settings)) continue;
    let copy: JsonObject | undefined;
    for (const [key, value] of Object.entries(settings)) {
      const name = isSecretKey(key) ? envReferenceName(value) : undefined;
      if (name === undefined) continue;
      const resolved = env[name];
      if (resolved === undefined || resolved === '') {
        throw new ConfigError(
          `"${section}.${key}" refers to the environment variable ${name}, which is not set; set ${name} or write the value directly`,
          name,
        );
      }
      copy ??= { ...settings };
      copy[key] = resolved;
    }
    if (copy) out[section] = copy;
  }
  return out;
}

/** Remove secret fields from every section (bare mode reads no stored keys from files). */
export function withoutSecrets(config: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [section, settings] of Object.entries(config)) {
    if (!isJsonObject(settings)) {
      out[section] = settings;
      continue;
    }
    out[section] = Object.fromEntries(Object.entries(settings).filter(([key]) => !isSecretKey(key)));
  }
  return out;
}

/** `sk-…abcd`: enough to recognise a key, not enough to use it. */
export function maskSecret(value: string): string {
  if (envReferenceName(value) !== undefined) return value;
  if (value.length < 12) return '****';
  return `${value.slice(0, 3)}…${value.slice(-4)}`;
}
