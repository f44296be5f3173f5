/**
 * Removes secrets from anything written to the output channel: values of secret-named keys at any depth, and any
 * occurrence of a known secret value (e.g. an API key echoed inside a string). Pure: no `vscode` import.
 */

const SECRET_KEY = /^(?:api[-_]?key|client[-_]?secret|authorization|password|token|access[-_]?token|secret|bearer)$/i;
export const REDACTED = '***';

/** Returns a deep copy with secrets replaced by `***`. `knownSecrets` shorter than 4 characters are ignored. */
export function redact(value: unknown, knownSecrets: Iterable<string> = []): unknown {
  const secrets = [...knownSecrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  return walk(value, secrets, new WeakSet());
}

function walk(value: unknown, secrets: string[], seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return scrubString(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, secrets, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && v !== undefined && v !== null && v !== '' ? REDACTED : walk(v, secrets, seen);
  }
  return out;
}

/** Replaces known secret values and `Bearer <token>` forms inside free text. */
export function scrubString(text: string, knownSecrets: Iterable<string> = []): string {
  let out = text;
  for (const s of knownSecrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
  return out.replace(/\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`);
}
