import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { ErrorFix, fixForConfigKey } from '../../../src/protocol/errors';
import { configErrorFromIssues } from '../../../src/runtime/config/errors';
import { missingSetting } from '../../../src/runtime/providers/builders/config-errors';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { fromHttpRefusal, fromNetworkFailure, type ErrorContext } from '../../../src/runtime/providers/errors';
import { localRunnerRefusal } from '../../../src/runtime/providers/localrunner/remedies';
import { ProviderError, type ProviderId } from '../../../src/runtime/providers/types';
import { ConfigSchema } from '../../../src/runtime/config/schema';

const ctx = (provider: ProviderId): ErrorContext => ({ provider, model: 'm', endpoint: 'http://127.0.0.1:9', secrets: [] });

function thrown(fn: () => unknown): ProviderError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ProviderError, `a ProviderError, got ${String(e)}`);
    return e;
  }
  assert.fail('nothing was thrown');
}

describe('runtime errors: the structured fix (which setting repairs it)', () => {
  it('names the key by its kind: address, secret, model, provider, another setting; none for a non-key path', () => {
    assert.deepEqual(fixForConfigKey('serviceai.baseUrl'), { action: 'set_base_url', configKey: 'serviceai.baseUrl' });
    assert.deepEqual(fixForConfigKey('cloudhub.clientSecret'), { action: 'set_key', configKey: 'cloudhub.clientSecret' });
    assert.deepEqual(fixForConfigKey('vendorapi.model'), { action: 'set_model', configKey: 'vendorapi.model' });
    assert.deepEqual(fixForConfigKey('provider'), { action: 'select_provider', configKey: 'provider' });
    assert.deepEqual(fixForConfigKey('cloudhub.deploymentName'), { action: 'set_setting', configKey: 'cloudhub.deploymentName' });
    assert.equal(fixForConfigKey('permissions.allow[2]'), undefined);
    assert.equal(ErrorFix.safeParse({ action: 'set_setting', configKey: 'a..b' }).success, false, 'the wire refuses a malformed key');
  });

  it('a missing setting keeps the terminal remedy for the CLI and names the key in `fix`', () => {
    const e = missingSetting('serviceai.baseUrl', 'the address of the hosted service is unknown', 'SERVICE_BASE_URL');
    assert.match(e.remedy, /agentcli config set serviceai\.baseUrl/);
    assert.deepEqual(e.fix, { action: 'set_base_url', configKey: 'serviceai.baseUrl' });
  });

  it('the provider builders raise each missing setting with its fix', () => {
    const base = ConfigSchema.parse({});
    const cases: Array<[Record<string, unknown>, ErrorFix]> = [
      [{ provider: 'serviceai' }, { action: 'set_base_url', configKey: 'serviceai.baseUrl' }],
      [{ provider: 'serviceai', serviceai: { baseUrl: 'http://127.0.0.1:9' } }, { action: 'set_key', configKey: 'serviceai.apiKey' }],
      [{ provider: 'vendorapi' }, { action: 'set_key', configKey: 'vendorapi.apiKey' }],
      [{ provider: 'cloudhub' }, { action: 'set_setting', configKey: 'cloudhub.resourceName' }],
      [{ provider: 'cloudhub', cloudhub: { resourceName: 'r' } }, { action: 'set_setting', configKey: 'cloudhub.deploymentName' }],
      [{ provider: 'cloudhub', cloudhub: { resourceName: 'r', deploymentName: 'd' } }, { action: 'set_key', configKey: 'cloudhub.apiKey' }],
      [{ provider: 'localrunner', localrunner: { enabled: false } }, { action: 'set_setting', configKey: 'localrunner.enabled' }],
      [{ provider: 'serviceai', serviceai: { baseUrl: 'http://x', apiKey: 'k', model: 'weka' } }, { action: 'set_model', configKey: 'serviceai.model' }],
    ];
    for (const [config, fix] of cases) {
      const parsed = ConfigSchema.parse({ ...base, ...config });
      assert.deepEqual(thrown(() => createProvider(parsed)).fix, fix, JSON.stringify(config));
    }
  });

  it('maps refusals to the setting that fixes them, per provider', () => {
    const refusal = (provider: ProviderId, status: number, detail = 'no') => fromHttpRefusal({ status, detail }, ctx(provider)).fix;
    assert.deepEqual(refusal('serviceai', 401), { action: 'set_key', configKey: 'serviceai.apiKey' });
    assert.deepEqual(refusal('vendorapi', 403), { action: 'set_key', configKey: 'vendorapi.apiKey' });
    assert.equal(refusal('cloudhub', 401), undefined, 'cloudhub may use an identity, not a key');
    assert.deepEqual(refusal('vendorapi', 404), { action: 'set_model', configKey: 'vendorapi.model' });
    assert.deepEqual(refusal('cloudhub', 404), { action: 'set_setting', configKey: 'cloudhub.deploymentName' });
    assert.deepEqual(refusal('cloudhub', 400, 'the model is not available in this region'), { action: 'set_setting', configKey: 'cloudhub.resourceName' });
    assert.equal(refusal('vendorapi', 429), undefined, 'waiting is the remedy, not a setting');
    assert.equal(refusal('vendorapi', 500), undefined);
    const refused = fromNetworkFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), ctx('localrunner'));
    assert.deepEqual(refused.fix, { action: 'set_base_url', configKey: 'localrunner.baseUrl' });
    const lr = { ...ctx('localrunner'), numCtx: 8192 };
    assert.deepEqual(localRunnerRefusal(404, 'model not found', lr).fix, { action: 'set_model', configKey: 'localrunner.model' });
    assert.deepEqual(localRunnerRefusal(500, 'out of memory', lr).fix, { action: 'set_setting', configKey: 'localrunner.numCtx' });
  });

  it('a config file problem names its first key', () => {
    const schema = z.object({ localrunner: z.object({ temperature: z.number() }) });
    const input = { localrunner: { temperature: 'hot' } };
    const parsed = schema.safeParse(input);
    assert.ok(!parsed.success);
    const e = configErrorFromIssues(parsed.error.issues, input, () => 'config.json');
    assert.deepEqual(e.fix, { action: 'set_setting', configKey: 'localrunner.temperature' });
  });
});
