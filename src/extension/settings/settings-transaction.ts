/**
 * Settings changes that happen whole or not at all. A transaction remembers, before its first write of each setting
 * or secret, the value it had in the scope the write goes to; `rollback` puts every one back, in that same scope, in
 * reverse order. The stores are injected (VS Code's configuration and SecretStorage in the extension, maps in tests).
 * No `vscode` import.
 */

/** Where a setting's value lives, most specific last. */
export type SettingScope = 'user' | 'workspace' | 'workspaceFolder';

export interface SettingsStore {
  /** The scope a write of `agentcli.<key>` goes to: the most specific scope that already sets it, else user. */
  targetOf(key: string): SettingScope;
  /** The value `agentcli.<key>` has in that scope; undefined when that scope does not set it. */
  valueIn(key: string, scope: SettingScope): unknown;
  /** Sets (or with undefined, removes) `agentcli.<key>` in that scope. */
  write(key: string, value: unknown, scope: SettingScope): Promise<void>;
}

/** Secrets by dotted key (`serviceai.apiKey`). */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

type Saved = { kind: 'setting'; key: string; scope: SettingScope; before: unknown } | { kind: 'secret'; key: string; before: string | undefined };

export class SettingsTransaction {
  private readonly saved: Saved[] = [];

  constructor(
    private readonly settings: SettingsStore,
    private readonly secrets: SecretStore,
  ) {}

  async set(key: string, value: unknown): Promise<void> {
    const earlier = this.saved.find((s): s is Extract<Saved, { kind: 'setting' }> => s.kind === 'setting' && s.key === key);
    const scope = earlier?.scope ?? this.settings.targetOf(key);
    if (!earlier) this.saved.push({ kind: 'setting', key, scope, before: this.settings.valueIn(key, scope) });
    await this.settings.write(key, value, scope);
  }

  async setSecret(key: string, value: string): Promise<void> {
    if (!this.saved.some((s) => s.kind === 'secret' && s.key === key)) this.saved.push({ kind: 'secret', key, before: await this.secrets.get(key) });
    await this.secrets.store(key, value);
  }

  /** The settings and secrets written so far, by dotted key. */
  get keys(): string[] {
    return this.saved.map((s) => s.key);
  }

  /**
   * Puts every value back as it was, last write first. Every value is tried even when one fails; then the failures are
   * thrown together, naming each setting.
   */
  async rollback(): Promise<void> {
    const failures: string[] = [];
    for (const s of [...this.saved].reverse()) {
      try {
        if (s.kind === 'setting') await this.settings.write(s.key, s.before, s.scope);
        else if (s.before === undefined) await this.secrets.delete(s.key);
        else await this.secrets.store(s.key, s.before);
      } catch (e) {
        failures.push(`agentcli.${s.key}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.saved.length = 0;
    if (failures.length > 0) throw new Error(`could not restore ${failures.join('; ')}`);
  }
}

/**
 * Runs `body` with a transaction. When it throws, every write is undone before the error is passed on; when the
 * rollback fails too, the error says both.
 */
export async function inTransaction<T>(settings: SettingsStore, secrets: SecretStore, body: (tx: SettingsTransaction) => Promise<T>): Promise<T> {
  const tx = new SettingsTransaction(settings, secrets);
  try {
    return await body(tx);
  } catch (e) {
    try {
      await tx.rollback();
    } catch (restore) {
      throw new Error(`${e instanceof Error ? e.message : String(e)}; and ${restore instanceof Error ? restore.message : String(restore)}`, { cause: restore });
    }
    throw e;
  }
}
