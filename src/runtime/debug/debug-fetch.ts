/**
 * `SERVICE_DEBUG=true` (config `debug`): a fetch wrapper that logs each provider request and response —
 * method, URL, status, timing, body sizes and the start of each body — with every key, token and secret redacted.
 */
import { redactBody, redactHeaders, redactText, redactUrl, type SecretSet } from './redact';

/** Bodies are shown up to this many characters; the log says how much was left out. */
export const DEBUG_BODY_LIMIT = 2000;

export type DebugSink = (line: string) => void;

/** Writes debug lines to stderr (stdout carries the answer or the JSON-RPC stream). */
export const stderrSink: DebugSink = (line) => {
  process.stderr.write(`${line}\n`);
};

export interface DebugFetchOptions {
  /** A label for the lines, e.g. the provider id. */
  label: string;
  secrets: SecretSet;
  sink?: DebugSink;
  now?: () => number;
}

function truncate(text: string): string {
  if (text.length <= DEBUG_BODY_LIMIT) return text;
  return `${text.slice(0, DEBUG_BODY_LIMIT)}… (${text.length - DEBUG_BODY_LIMIT} more characters not shown)`;
}

function requestBodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return undefined;
}

function urlOf(input: Parameters<typeof fetch>[0]): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.toString();
  return input.url;
}

/**
 * Wraps `base` so every call is logged; the response handed back is untouched (streams still stream). Each record is
 * one line (line breaks in a body are written `\n`), so a reader tells debug lines by their prefix alone: the editor
 * drops them as soon as `agentcli.debug` is turned off.
 */
export function debugFetch(base: typeof fetch, opts: DebugFetchOptions): typeof fetch {
  const out = opts.sink ?? stderrSink;
  const sink: DebugSink = (line) => out(line.replace(/\r?\n/g, '\\n'));
  const now = opts.now ?? (() => performance.now());
  const secrets = opts.secrets;
  const prefix = `[agentcli debug] ${opts.label}`;
  let counter = 0;
  const wrapped = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const n = ++counter;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = redactUrl(urlOf(input), secrets);
    const bodyText = requestBodyText(init?.body);
    const headers = redactHeaders(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)), secrets);
    const size = bodyText === undefined ? 'no body' : `${Buffer.byteLength(bodyText)} bytes`;
    sink(`${prefix} #${n} → ${method} ${url} (${size}) headers ${JSON.stringify(headers)}`);
    if (bodyText !== undefined) sink(`${prefix} #${n} → body ${truncate(redactBody(bodyText, secrets))}`);
    const started = now();
    let response: Response;
    try {
      response = await base(input, init);
    } catch (err) {
      const ms = Math.round(now() - started);
      sink(`${prefix} #${n} ✗ ${method} ${url} failed after ${ms} ms: ${redactText(err instanceof Error ? err.message : String(err), secrets)}`);
      throw err;
    }
    const ms = Math.round(now() - started);
    const type = response.headers.get('content-type') ?? 'no content type';
    sink(`${prefix} #${n} ← ${response.status} ${method} ${url} in ${ms} ms (${type})`);
    logResponseBody(response.clone(), `${prefix} #${n}`, sink, secrets);
    return response;
  };
  return wrapped as typeof fetch;
}

/** Reads the copy of the response in the background and logs its size and start once it has ended. */
function logResponseBody(copy: Response, prefix: string, sink: DebugSink, secrets: SecretSet): void {
  void copy
    .text()
    .then((text) => {
      sink(`${prefix} ← body ${Buffer.byteLength(text)} bytes: ${truncate(redactBody(text, secrets))}`);
    })
    .catch((err: unknown) => {
      sink(`${prefix} ← body not fully received: ${redactText(err instanceof Error ? err.message : String(err), secrets)}`);
    });
}
