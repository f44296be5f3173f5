import assert from 'node:assert/strict';
import { changedKeys, checkSetting, configFromSettings } from '../../src/extension/settings/to-config';
import { PROVIDER_SETTINGS } from '../../src/extension/settings/table';

const reader = (values: Record<string, unknown>) => (key: string) => values[key];
const spec = (key: string) => {
  const s = PROVIDER_SETTINGS.find((x) => x.key === key);
  if (!s) throw new Error(`no setting ${key}`);
  return s;
};

describe('extension settings → configure payload', () => {
  it('sends only the values the user set, nested like the config file', () => {
    const { config, problems } = configFromSettings(
      reader({ provider: 'ggufserver', 'ggufserver.baseUrl': 'http://127.0.0.1:9000', 'ggufserver.temperature': 0.2, 'localrunner.numCtx': 8192 }),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(config, { provider: 'ggufserver', ggufserver: { baseUrl: 'http://127.0.0.1:9000', temperature: 0.2 }, localrunner: { numCtx: 8192 } });
  });

  it('sends the loop strategy (agentcli.loopType) and names it when it is not one of the four', () => {
    assert.deepEqual(configFromSettings(reader({ loopType: 'plan-and-execute' })).config, { loopType: 'plan-and-execute' });
    const { config, problems } = configFromSettings(reader({ loopType: 'tree-of-thought' }));
    assert.deepEqual(config, {});
    assert.equal(problems[0]?.message, 'agentcli.loopType must be one of "react", "plan-and-execute", "parallel", "reflexion" (it is "tree-of-thought")');
  });

  it('treats empty strings and null as not set', () => {
    assert.deepEqual(configFromSettings(reader({ 'vendorapi.model': '', 'cloudhub.tenantId': null })).config, {});
  });

  it('leaves invalid values out and names the setting, the rule and the value', () => {
    const { config, problems } = configFromSettings(
      reader({ 'localrunner.temperature': 3, 'ggufserver.baseUrl': 'localhost:8080', 'cloudhub.authMethod': 'password', 'localrunner.keepAlive': '5 minutes', 'ggufserver.topK': 2.5 }),
    );
    assert.deepEqual(config, {});
    const messages = problems.map((p) => p.message);
    assert.deepEqual(problems.map((p) => p.setting), [
      'agentcli.localrunner.keepAlive',
      'agentcli.localrunner.temperature',
      'agentcli.ggufserver.baseUrl',
      'agentcli.ggufserver.topK',
      'agentcli.cloudhub.authMethod',
    ]);
    assert.match(messages[0]!, /"5m"/);
    assert.match(messages[1]!, /agentcli\.localrunner\.temperature must be a number from 0 to 1 \(it is 3\)/);
    assert.match(messages[2]!, /http:\/\/ or https:\/\//);
    assert.match(messages[3]!, /must be an integer of 0 or more/);
    assert.match(messages[4]!, /"api-key", "entra-id", "managed-identity"/);
  });

  it('adds secrets from secret storage and skips missing ones', () => {
    const { config } = configFromSettings(reader({ provider: 'cloudhub' }), { 'cloudhub.apiKey': 'k-123', 'vendorapi.apiKey': undefined, 'cloudhub.clientSecret': '' });
    assert.deepEqual(config, { provider: 'cloudhub', cloudhub: { apiKey: 'k-123' } });
  });

  it('checks ranges at their edges', () => {
    const t = spec('ggufserver.temperature');
    assert.equal(checkSetting(t, 0), undefined);
    assert.equal(checkSetting(t, 2), undefined);
    assert.match(checkSetting(t, 2.01) ?? '', /from 0 to 2/);
    assert.match(checkSetting(spec('localrunner.numCtx'), 0) ?? '', /integer of 1 or more/);
    assert.equal(checkSetting(spec('ggufserver.seed'), -1), undefined);
    assert.match(checkSetting(spec('localrunner.enabled'), 'yes') ?? '', /true or false/);
  });

  it('lists which keys changed between two payloads without their values', () => {
    assert.deepEqual(changedKeys({ provider: 'a', x: { t: 1, u: 2 } }, { provider: 'a', x: { t: 2, u: 2 }, y: 1 }), ['x.t', 'y']);
  });
});
