import assert from 'node:assert/strict';
import type { ErrorFix } from '../../src/protocol/errors';
import { RpcErrorCode } from '../../src/protocol/errors';
import { editorCanFix, editorError, editorErrorOf, inEditorWords, notificationText, withoutTerminalWording } from '../../src/extension/settings/error-wording';
import { ConfigSchema } from '../../src/runtime/config/schema';
import { createProvider } from '../../src/runtime/providers/create-provider';
import { fromHttpRefusal, fromNetworkFailure } from '../../src/runtime/providers/errors';
import { localRunnerRefusal } from '../../src/runtime/providers/localrunner/remedies';
import { checkInputLimit } from '../../src/runtime/providers/serviceai/limits';
import { ProviderError, type ProviderId } from '../../src/runtime/providers/types';
import { ProtocolError } from '../../src/sdk/errors';
import { errorActions } from '../../src/shared/chat/errorActions';

/** What must never reach the editor: a terminal command, a flag, a protocol code. */
const TERMINAL = /agentcli config set|agentcli decide|--model|--provider|\(code -?\d+\)|\/reset/;

function thrown(fn: () => unknown): ProviderError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProviderError) return e;
    throw e;
  }
  assert.fail('nothing was thrown');
}

const ctx = (provider: ProviderId) => ({ provider, model: 'm', endpoint: 'http://127.0.0.1:9', secrets: [] });

/** Every runtime error that names a fix, made by the runtime's own code. */
function runtimeErrorsWithFix(): ProviderError[] {
  const build = (config: Record<string, unknown>) => () => createProvider(ConfigSchema.parse(config));
  const errors = [
    thrown(build({ provider: 'serviceai' })),
    thrown(build({ provider: 'serviceai', serviceai: { baseUrl: 'http://x' } })),
    thrown(build({ provider: 'serviceai', serviceai: { baseUrl: 'http://x', apiKey: 'k', model: 'weka' } })),
    thrown(build({ provider: 'vendorapi' })),
    thrown(build({ provider: 'cloudhub' })),
    thrown(build({ provider: 'cloudhub', cloudhub: { resourceName: 'r' } })),
    thrown(build({ provider: 'cloudhub', cloudhub: { resourceName: 'r', deploymentName: 'd' } })),
    thrown(build({ provider: 'localrunner', localrunner: { enabled: false } })),
    fromHttpRefusal({ status: 401, detail: 'bad key' }, ctx('serviceai')),
    fromHttpRefusal({ status: 404, detail: 'no such model' }, ctx('vendorapi')),
    fromHttpRefusal({ status: 404, detail: 'DeploymentNotFound' }, ctx('cloudhub')),
    fromHttpRefusal({ status: 404, detail: 'not found' }, ctx('ggufserver')),
    fromNetworkFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), ctx('localrunner')),
    fromNetworkFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), ctx('ggufserver')),
    localRunnerRefusal(404, 'model "m" not found', { ...ctx('localrunner'), numCtx: 4096 }),
    localRunnerRefusal(500, 'out of memory', { ...ctx('localrunner'), numCtx: 4096 }),
    thrown(() => checkInputLimit('fantail', 10, { messages: [{ role: 'user', content: 'x'.repeat(400) }], tools: [] }, { model: 'moa', contextWindow: 100_000 })),
  ];
  for (const e of errors) assert.ok(e.fix, `${e.message} names its fix`);
  return errors;
}

describe('extension: runtime errors in the editor\'s words', () => {
  it('every runtime error with a fix names its setting, has a button, and no terminal wording or code', () => {
    for (const e of runtimeErrorsWithFix()) {
      const fix = e.fix!;
      const shown = editorError(e.code, e.message, e.remedy, fix);
      const all = `${shown.message} ${shown.remedy ?? ''}`;
      assert.doesNotMatch(all, TERMINAL, `${e.message} / ${e.remedy} → ${all}`);
      assert.ok(editorCanFix(fix), `the editor has a button for ${JSON.stringify(fix)}`);
      assert.deepEqual(shown.fix, fix);
      assert.ok(errorActions(fix).length > 0);
      if (fix.action === 'set_base_url' || fix.action === 'set_setting') assert.match(all, new RegExp(`agentcli\\.${fix.configKey.replace('.', '\\.')}`), all);
    }
  });

  it('a missing address names the setting and offers Open Settings (exactly that setting) and Select Provider…', () => {
    const shown = editorError('config_error', 'serviceai.baseUrl is not set: the address of the hosted service is unknown', 'set it with `agentcli config set serviceai.baseUrl <value>` or the environment variable SERVICE_BASE_URL', {
      action: 'set_base_url',
      configKey: 'serviceai.baseUrl',
    });
    assert.equal(shown.message, 'agentcli.serviceai.baseUrl is not set: the address of the hosted service is unknown.');
    assert.match(shown.remedy!, /^Set agentcli\.serviceai\.baseUrl to the address of the serviceai server \(Open Settings\)/);
    assert.deepEqual(errorActions(shown.fix!), [
      { kind: 'openSetting', label: 'Open Settings', configKey: 'serviceai.baseUrl' },
      { kind: 'selectProvider', label: 'Select Provider…', configKey: 'provider' },
    ]);
  });

  it('buttons per fix: Select Model…, Set API Key…, Set Client Secret…, Select Provider…', () => {
    const labels = (fix: ErrorFix) => errorActions(fix).map((a) => `${a.kind}:${a.label}:${a.configKey}`);
    assert.deepEqual(labels({ action: 'set_model', configKey: 'vendorapi.model' }), ['selectModel:Select Model…:vendorapi.model']);
    assert.deepEqual(labels({ action: 'set_key', configKey: 'vendorapi.apiKey' }), ['setApiKey:Set API Key…:vendorapi.apiKey']);
    assert.deepEqual(labels({ action: 'set_key', configKey: 'cloudhub.clientSecret' }), ['setApiKey:Set Client Secret…:cloudhub.clientSecret']);
    assert.deepEqual(labels({ action: 'select_provider', configKey: 'provider' }), ['selectProvider:Select Provider…:provider']);
    assert.deepEqual(labels({ action: 'set_setting', configKey: 'cloudhub.deploymentName' }), ['openSetting:Open Settings:cloudhub.deploymentName']);
  });

  it('a key that is no editor setting keeps no button and says where it lives', () => {
    const shown = editorError('config_error', 'config.json: "sandbox.mode" must be one of "auto", "off"', undefined, { action: 'set_setting', configKey: 'sandbox.mode' });
    assert.equal(shown.fix, undefined);
    assert.match(shown.remedy!, /"sandbox\.mode" in ~\/\.agentcli\/config\.json/);
  });

  it('errors without a fix lose only their terminal-only clauses', () => {
    assert.equal(withoutTerminalWording('retry; if it persists, check the server'), 'retry; if it persists, check the server');
    assert.equal(
      withoutTerminalWording('pull the model first with the runner\'s pull command (`pull m`), or choose an installed one: localrunner.model, --model localrunner/<name>:<tag>'),
      'pull the model first with the runner\'s pull command; choose an installed one',
    );
    assert.equal(withoutTerminalWording('set it with `agentcli config set x <value>`'), undefined);
    const shown = editorError('provider_error', 'x failed', 'set it with `agentcli config set x <value>`', undefined);
    assert.deepEqual(shown, { message: 'x failed.' });
    const restored = inEditorWords({ kind: 'error', id: 'e1', code: 'config_error', message: 'model "weka" answers typed decisions only and cannot run in chat; ask it with `agentcli decide` (or decide() in the SDK)' });
    assert.equal(restored.kind === 'error' && restored.message, 'model "weka" answers typed decisions only and cannot run in chat.');
  });

  it('a restored error that saved its fix is worded as it was live and keeps the fix (the card shows its button again)', () => {
    const saved = { kind: 'error' as const, id: 'e2', code: 'connection_refused' as const, message: 'cannot reach ggufserver at http://127.0.0.1:9', remedy: 'set it with `agentcli config set ggufserver.baseUrl <value>`', fix: { action: 'set_base_url' as const, configKey: 'ggufserver.baseUrl' } };
    const live = editorError(saved.code, saved.message, saved.remedy, saved.fix);
    const restored = inEditorWords(saved);
    assert.deepEqual(restored, { kind: 'error', id: 'e2', code: 'connection_refused', ...live });
    assert.deepEqual(restored.kind === 'error' && restored.fix, saved.fix);
    assert.doesNotMatch(JSON.stringify(restored), TERMINAL);
    // an older saved chat: no fix, no remedy; still worded for the editor
    assert.deepEqual(inEditorWords({ kind: 'error', id: 'e3', code: 'provider_error', message: 'x failed' }), { kind: 'error', id: 'e3', code: 'provider_error', message: 'x failed.' });
  });

  it('a failed request: the structured data when sent, else the message without the method and the code', () => {
    const data = { code: 'config_error', message: 'vendorapi.apiKey is not set: the vendor API needs an API key', remedy: 'set it with `agentcli config set vendorapi.apiKey <value>`', fix: { action: 'set_key', configKey: 'vendorapi.apiKey' } };
    const withData = editorErrorOf(new ProtocolError(RpcErrorCode.ProviderError, `${data.message}. Remedy: ${data.remedy}`, data, 'listModels'));
    assert.equal(withData.message, 'No API key for vendorapi.');
    assert.deepEqual(withData.fix, data.fix);
    const plain = editorErrorOf(new ProtocolError(RpcErrorCode.ProviderError, 'the server is gone', undefined, 'listModels'));
    assert.deepEqual(plain, { message: 'the server is gone.' });
    assert.doesNotMatch(notificationText(plain, 'Could not list the models'), TERMINAL);
    assert.equal(notificationText(withData, 'Could not switch'), "Could not switch: no API key for vendorapi. Set one with 'agentcli: Set API Key…'.");
  });
});
