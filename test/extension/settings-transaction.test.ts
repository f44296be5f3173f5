import assert from 'node:assert/strict';
import { inTransaction, SettingsTransaction, type SecretStore, type SettingScope, type SettingsStore } from '../../src/extension/settings/settings-transaction';

/** Settings in three scopes, as VS Code keeps them; `failOn` makes one write throw. */
class MemorySettings implements SettingsStore {
  readonly scopes: Record<SettingScope, Map<string, unknown>> = { user: new Map(), workspace: new Map(), workspaceFolder: new Map() };
  readonly writes: string[] = [];
  failOn: { key: string; value: unknown } | undefined;

  targetOf(key: string): SettingScope {
    if (this.scopes.workspaceFolder.has(key)) return 'workspaceFolder';
    return this.scopes.workspace.has(key) ? 'workspace' : 'user';
  }
  valueIn(key: string, scope: SettingScope): unknown {
    return this.scopes[scope].get(key);
  }
  write(key: string, value: unknown, scope: SettingScope): Promise<void> {
    if (this.failOn && this.failOn.key === key && this.failOn.value === value) return Promise.reject(new Error(`cannot write ${key}`));
    this.writes.push(`${scope}:${key}=${String(value)}`);
    if (value === undefined) this.scopes[scope].delete(key);
    else this.scopes[scope].set(key, value);
    return Promise.resolve();
  }
  snapshot(): string {
    return JSON.stringify(Object.entries(this.scopes).map(([scope, values]) => [scope, [...values].sort()]));
  }
}

class MemorySecrets implements SecretStore {
  readonly values = new Map<string, string>();
  get(key: string) {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string) {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string) {
    this.values.delete(key);
    return Promise.resolve();
  }
}

describe('extension settings transaction', () => {
  let settings: MemorySettings;
  let secrets: MemorySecrets;
  beforeEach(() => {
    settings = new MemorySettings();
    secrets = new MemorySecrets();
  });

  it('writes each setting where it already lives (workspace over user) and keeps the writes on success', async () => {
    settings.scopes.workspace.set('provider', 'ggufserver');
    settings.scopes.user.set('provider', 'localrunner');
    await inTransaction(settings, secrets, async (tx) => {
      await tx.set('serviceai.baseUrl', 'http://127.0.0.1:9');
      await tx.set('provider', 'serviceai');
      await tx.setSecret('serviceai.apiKey', 'k-new');
    });
    assert.equal(settings.scopes.workspace.get('provider'), 'serviceai', 'the workspace value would shadow a user one');
    assert.equal(settings.scopes.user.get('provider'), 'localrunner', 'the user value is untouched');
    assert.equal(settings.scopes.user.get('serviceai.baseUrl'), 'http://127.0.0.1:9');
    assert.equal(secrets.values.get('serviceai.apiKey'), 'k-new');
  });

  it('a failure after some writes restores every setting and secret in its own scope, unset ones removed', async () => {
    settings.scopes.workspace.set('provider', 'ggufserver');
    settings.scopes.user.set('vendorapi.model', 'old-model');
    secrets.values.set('vendorapi.apiKey', 'k-old');
    const before = settings.snapshot();
    await assert.rejects(
      inTransaction(settings, secrets, async (tx) => {
        await tx.set('vendorapi.baseUrl', 'http://127.0.0.1:9/v1');
        await tx.setSecret('vendorapi.apiKey', 'k-new');
        await tx.setSecret('serviceai.apiKey', 'k-other');
        await tx.set('vendorapi.model', 'first');
        await tx.set('vendorapi.model', 'second'); // the value before the transaction is what comes back
        await tx.set('provider', 'vendorapi');
        throw new Error('the runtime refused the settings');
      }),
      /the runtime refused the settings/,
    );
    assert.equal(settings.snapshot(), before);
    assert.equal(secrets.values.get('vendorapi.apiKey'), 'k-old');
    assert.equal(secrets.values.has('serviceai.apiKey'), false, 'a secret that was not stored is removed again');
    assert.deepEqual(settings.writes.slice(-3), ['workspace:provider=ggufserver', 'user:vendorapi.model=old-model', 'user:vendorapi.baseUrl=undefined'], 'last write first');
  });

  it('a write that fails half way is rolled back with the others', async () => {
    settings.failOn = { key: 'provider', value: 'cloudhub' };
    const before = settings.snapshot();
    await assert.rejects(
      inTransaction(settings, secrets, async (tx) => {
        await tx.set('cloudhub.resourceName', 'r');
        await tx.set('provider', 'cloudhub');
      }),
      /cannot write provider/,
    );
    assert.equal(settings.snapshot(), before);
  });

  it('when the rollback fails too, the error names both and every other value is still restored', async () => {
    settings.scopes.user.set('provider', 'ggufserver');
    const tx = new SettingsTransaction(settings, secrets);
    await tx.set('localrunner.baseUrl', 'http://127.0.0.1:1');
    await tx.set('provider', 'localrunner');
    assert.deepEqual(tx.keys, ['localrunner.baseUrl', 'provider']);
    settings.failOn = { key: 'provider', value: 'ggufserver' };
    await assert.rejects(tx.rollback(), /could not restore agentcli\.provider: cannot write provider/);
    assert.equal(settings.scopes.user.has('localrunner.baseUrl'), false);
    await assert.rejects(
      inTransaction(settings, secrets, async (t) => {
        await t.set('provider', 'serviceai');
        settings.failOn = { key: 'provider', value: 'localrunner' };
        throw new Error('refused');
      }),
      /refused; and could not restore agentcli\.provider/,
    );
  });
});
