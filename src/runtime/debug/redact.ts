/**
 * Redaction for anything that may be shown or logged: known secret values (API keys, client secrets, tokens
 * obtained at run time), credential headers, URL query parameters and JSON fields whose name says they hold a secret.
 */

/** Shorter values are not treated as secrets: replacing them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;
export const REDACTED = '[redacted]';

/** Header names whose values are credentials, whatever their content. */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'api-key',
  'x-api-key',
  'cookie',
  'set-cookie',
  'x-identity-header',
  'secret',
]);

/** Header names that say they carry a credential (`Ocp-Apim-Subscription-Key`, `x-goog-api-key`, `x-auth-token`, ...). */
const SECRET_HEADER_WORDS = /key|token|secret|auth/i;

/** URL query parameters that carry credentials (keys, SAS signatures, function codes, OAuth tokens and assertions). */
const SECRET_QUERY_PARAMS = new Set([
  'api-key',
  'api_key',
  'apikey',
  'key',
  'code',
  'sig',
  'signature',
  'token',
  'access_token',
  'client_secret',
  'assertion',
  'subscription-key',
]);

/** JSON / form field names whose values are credentials. */
const SECRET_FIELD = /(^|[_-])(api[_-]?key|apikey|key|token|access[_-]?token|refresh[_-]?token|id[_-]?token|secret|client[_-]?secret|password|assertion)$/i;

/**
 * The secret values a component knows about. Tokens obtained at run time are added as they arrive,
 * so every redaction afterwards covers them too.
 */
export class SecretSet {
  private readonly values = new Set<string>();

  constructor(initial: Iterable<string | undefined> = []) {
    for (const value of initial) this.add(value);
  }

  add(value: string | undefined): void {
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) this.values.add(value);
  }

  list(): string[] {
    // Longest first, so a secret that contains another is replaced whole.
    return [...this.values].sort((a, b) => b.length - a.length);
  }
}

/** Replaces every occurrence of each secret in `text` (also URL-encoded) with `[redacted]`. */
export function redactText(text: string, secrets: readonly string[] | SecretSet): string {
  const list = secrets instanceof SecretSet ? secrets.list() : secrets;
  let out = text;
  for (const secret of list) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    out = out.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  return out;
}

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase()) || SECRET_HEADER_WORDS.test(name);
}

function isSecretQueryParam(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    // a malformed escape: judge the name as written
  }
  return SECRET_QUERY_PARAMS.has(name.toLowerCase()) || SECRET_FIELD.test(name);
}

/**
 * A URL safe to show: the values of credential query parameters (`?api-key=`, `?sig=`, `?code=`, ... whatever
 * they hold) and a password in the URL become `[redacted]`, and known secret values anywhere else too.
 */
export function redactUrl(url: string, secrets: readonly string[] | SecretSet): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const question = beforeHash.indexOf('?');
  let base = question === -1 ? beforeHash : beforeHash.slice(0, question);
  base = base.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, `$1:${REDACTED}@`);
  const query =
    question === -1
      ? ''
      : beforeHash
          .slice(question)
          .replace(/([?&;])([^=&;#]+)=([^&;#]*)/g, (whole, sep: string, name: string) =>
            isSecretQueryParam(name) ? `${sep}${name}=${REDACTED}` : whole,
          );
  return redactText(`${base}${query}${fragment}`, secrets);
}

/** Headers as `name: value` pairs with credential headers replaced by `[redacted]`. */
export function redactHeaders(headers: Iterable<[string, string]>, secrets: SecretSet): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    out[name.toLowerCase()] = isSecretHeader(name) ? REDACTED : redactText(value, secrets);
  }
  return out;
}

function redactValue(value: unknown, secrets: SecretSet, key?: string): unknown {
  if (key !== undefined && SECRET_FIELD.test(key) && (typeof value === 'string' || typeof value === 'number')) {
    return REDACTED;
  }
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, secrets, k)]));
  }
  return value;
}

/**
 * A request or response body made safe to show: JSON has secret-named fields replaced, form bodies
 * (`a=b&c=d`) likewise, anything else has known secret values replaced.
 */
export function redactBody(text: string, secrets: SecretSet): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactValue(JSON.parse(trimmed), secrets));
    } catch {
      // not JSON after all (or a stream of JSON lines): fall through to value redaction
    }
  }
  if (/^[\w.%-]+=[^&\s]*(&[\w.%-]+=[^&\s]*)+$/.test(trimmed)) {
    const params = new URLSearchParams(trimmed);
    for (const name of [...params.keys()]) if (SECRET_FIELD.test(name)) params.set(name, REDACTED);
    return redactText(params.toString(), secrets);
  }
  return redactText(text, secrets);
}
