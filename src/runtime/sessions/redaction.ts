/**
 * Secrets never reach a saved session: every string written goes through the masker the tool output already uses
 * (`SecretMasker`, built on the debug log's `redactText`): the key values of the loaded config (any `...Key`,
 * `...Secret`, `...Token`, `...Password`), those set later with `configure`, and the values of environment variables
 * named like secrets.
 */
import { SecretMasker } from '../secrets/masker';

export class SessionRedactor {
  private masker: SecretMasker;

  constructor(
    config: unknown,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.masker = SecretMasker.from(config, env);
  }

  /** New settings (`configure` may carry keys): their secrets are masked from now on. */
  update(config: unknown): void {
    this.masker = SecretMasker.from(config, this.env);
  }

  text(value: string): string {
    return this.masker.mask(value);
  }

  /** A copy of a JSON value with every string masked. */
  value<T>(value: T): T {
    return this.walk(value) as T;
  }

  /** True when masking would change the text (it holds a secret). */
  holdsSecret(value: string | null): boolean {
    return value !== null && this.masker.mask(value) !== value;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.masker.mask(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.walk(v)]));
    }
    return value;
  }
}

