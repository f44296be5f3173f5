/**
 * Masks the secret values the runtime knows (provider keys and client secrets from the config files and the
 * environment, and the values of variables named as secrets) in tool output before it reaches the model, the events
 * or a log. Built on the debug log's redaction (`redactText`), with a longer minimum so ordinary output is never
 * mangled, and with a streaming form that catches a secret split across two chunks.
 */
import { redactText } from '../debug/redact';
import { hasSecretName } from './command-env';

/** Shorter values are never masked: replacing them would destroy ordinary output. */
export const MIN_MASKED_LENGTH = 8;

/** Config keys whose values are secrets (`apiKey`, `clientSecret`, `token`, `password`, ...). */
const SECRET_CONFIG_KEY = /(?:key|secret|token|password)$/i;

function collectConfigSecrets(node: unknown, out: Set<string>, key?: string): void {
  if (typeof node === 'string') {
    if (key !== undefined && SECRET_CONFIG_KEY.test(key)) out.add(node);
    return;
  }
  if (Array.isArray(node)) return; // rule lists, directory lists: no secrets
  if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) collectConfigSecrets(v, out, k);
  }
}

export class SecretMasker {
  private readonly secrets: string[];
  /** The secrets and their URL-encoded forms: what a streamed chunk may end in the middle of. */
  private readonly patterns: string[];

  constructor(values: Iterable<string | undefined>) {
    const kept = new Set<string>();
    for (const value of values) {
      const trimmed = value?.trim();
      if (trimmed && trimmed.length >= MIN_MASKED_LENGTH) kept.add(trimmed);
    }
    this.secrets = [...kept].sort((a, b) => b.length - a.length);
    this.patterns = [...new Set(this.secrets.flatMap((s) => [s, encodeURIComponent(s)]))];
  }

  /** The secrets in a loaded config (any `...Key`, `...Secret`, `...Token`, `...Password` string) and in `env`. */
  static from(config: unknown, env: NodeJS.ProcessEnv): SecretMasker {
    const values = new Set<string>();
    collectConfigSecrets(config, values);
    for (const [name, value] of Object.entries(env)) if (value !== undefined && hasSecretName(name)) values.add(value);
    return new SecretMasker(values);
  }

  get size(): number {
    return this.secrets.length;
  }

  mask(text: string): string {
    return this.secrets.length === 0 ? text : redactText(text, this.secrets);
  }

  /** A masker for one stream of chunks: hold back a tail that could be the start of a secret until the next chunk. */
  stream(): StreamMask {
    return new StreamMask(this);
  }

  /** Length of the longest end of `text` that is the beginning (not the whole) of a secret. */
  pendingTail(text: string): number {
    let longest = 0;
    for (const pattern of this.patterns) {
      for (let k = Math.min(pattern.length - 1, text.length); k > longest; k--) {
        if (text.endsWith(pattern.slice(0, k))) {
          longest = k;
          break;
        }
      }
    }
    return longest;
  }
}

export class StreamMask {
  private held = '';

  constructor(private readonly masker: SecretMasker) {}

  /** The masked text safe to pass on now (may be empty while a possible secret is held back). */
  push(chunk: string): string {
    const text = this.held + chunk;
    const keep = this.masker.pendingTail(text);
    this.held = text.slice(text.length - keep);
    return this.masker.mask(text.slice(0, text.length - keep));
  }

  /** What is still held back, masked: call when the stream ends. */
  flush(): string {
    const rest = this.masker.mask(this.held);
    this.held = '';
    return rest;
  }
}

