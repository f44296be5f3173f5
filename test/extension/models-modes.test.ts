import assert from 'node:assert/strict';
import { modelPickItems, modelStatusText, providerPickItems, shownModel } from '../../src/extension/models/model-items';
import { editorError } from '../../src/extension/settings/error-wording';
import { secretPickItems } from '../../src/extension/settings/secret-items';
import { parseYoloMinutes, remainingText, tickMs, yoloEndedText } from '../../src/extension/modes/yolo';

describe('extension model picker items', () => {
  it('lists available models first with the current one on top, unavailable ones with their reason', () => {
    const items = modelPickItems({
      provider: 'serviceai',
      current: 'moa',
      models: [
        { id: 'fantail', available: true, contextWindow: 128000 },
        { id: 'weka', available: false, reason: 'decisions only; not a chat model' },
        { id: 'moa', available: true },
      ],
    });
    assert.deepEqual(items.map((i) => [i.modelId, i.available]), [['moa', true], ['fantail', true], ['weka', false]]);
    assert.equal(items[0]!.description, 'current');
    assert.equal(items[1]!.description, '128,000-token context');
    assert.equal(items[2]!.detail, 'decisions only; not a chat model');
    assert.match(items[2]!.label, /circle-slash/);
  });

  it('lists the five providers with their key status and marks the current one', () => {
    const items = providerPickItems('ggufserver', { serviceai: 'missing', localrunner: 'not-needed', ggufserver: 'not-needed', vendorapi: 'set', cloudhub: 'missing' });
    assert.deepEqual(items.map((i) => i.provider), ['serviceai', 'localrunner', 'ggufserver', 'vendorapi', 'cloudhub']);
    assert.deepEqual(items.map((i) => i.description), [
      'Hosted service · no key',
      'Local model runner · no key needed',
      'Local gguf model server · no key needed · current',
      'Vendor API account · key set',
      'Cloud-hosted deployment · no key',
    ]);
  });

  it('lists the providers without key status when the saved keys could not be read in time', () => {
    const items = providerPickItems('vendorapi', undefined);
    assert.deepEqual(items.map((i) => i.description), [
      'Hosted service',
      'Local model runner',
      'Local gguf model server',
      'Vendor API account · current',
      'Cloud-hosted deployment',
    ]);
  });

  it('asks to choose a model when the provider has none (the runtime says "(not configured)")', () => {
    assert.equal(modelStatusText('ggufserver', 'stub'), '$(hubot) ggufserver/stub');
    assert.equal(modelStatusText('vendorapi', '(not configured)'), '$(hubot) vendorapi: choose a model');
    assert.equal(modelStatusText('vendorapi', ''), '$(hubot) vendorapi: choose a model');
    assert.equal(modelStatusText('', ''), '$(hubot) agentcli');
    assert.equal(shownModel('(not configured)'), 'choose a model');
    assert.equal(shownModel('stub'), 'stub');
  });
});

describe('extension keys', () => {
  it('maps the runtime\'s missing-key config error to the Set API Key… command', () => {
    const m = editorError('config_error', 'serviceai.apiKey is not set: the hosted service needs an API key', 'set it with `agentcli config set serviceai.apiKey <value>`', {
      action: 'set_key',
      configKey: 'serviceai.apiKey',
    });
    assert.deepEqual(m.fix, { action: 'set_key', configKey: 'serviceai.apiKey' });
    assert.equal(m.message, 'No API key for serviceai.');
    assert.equal(m.remedy, "Set one with 'agentcli: Set API Key…'.");
    const secret = editorError('config_error', 'cloudhub.clientSecret is not set: entra-id needs the application secret', undefined, { action: 'set_key', configKey: 'cloudhub.clientSecret' });
    assert.equal(secret.message, 'No client secret for cloudhub.');
  });

  it('lists one row per secret with whether it is set', () => {
    const items = secretPickItems(new Set(['vendorapi.apiKey']));
    assert.deepEqual(items.map((i) => [i.label, i.description]), [
      ['serviceai', 'no key'],
      ['vendorapi', 'key set'],
      ['cloudhub', 'no key'],
      ['cloudhub client secret', 'no key'],
    ]);
  });
});

describe('extension yolo input', () => {
  it('accepts positive minutes only', () => {
    assert.deepEqual(parseYoloMinutes(' 15 '), { minutes: 15 });
    assert.deepEqual(parseYoloMinutes('0.5'), { minutes: 0.5 });
    assert.match((parseYoloMinutes('0') as { error: string }).error, /must be positive/);
    assert.match((parseYoloMinutes('-3') as { error: string }).error, /must be positive/);
    assert.match((parseYoloMinutes('soon') as { error: string }).error, /number of minutes/);
    assert.match((parseYoloMinutes('') as { error: string }).error, /number of minutes/);
    assert.match((parseYoloMinutes('20000') as { error: string }).error, /one week/);
  });

  it('shows the time left', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(remainingText('2026-01-01T00:12:00Z', now), '12m left');
    assert.equal(remainingText('2026-01-01T01:05:00Z', now), '1h 05m left');
    assert.equal(remainingText('2025-12-31T23:00:00Z', now), 'ending');
    assert.equal(remainingText(undefined, now), '');
    assert.equal(remainingText('2026-01-01T00:00:42Z', now), '42s left');
    assert.equal(remainingText('2026-01-01T00:01:00Z', now), '1m left');
  });

  it('redraws every second in the last minute, and names the length when it ends', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(tickMs('2026-01-01T00:00:30Z', now), 1000);
    assert.equal(tickMs('2026-01-01T00:10:00Z', now), 15000);
    assert.equal(tickMs(undefined, now), 15000);
    assert.equal(yoloEndedText(30), 'Yolo mode ended after 30 minutes. Tools ask before running again.');
    assert.equal(yoloEndedText(1), 'Yolo mode ended after 1 minute. Tools ask before running again.');
    assert.equal(yoloEndedText(0.05), 'Yolo mode ended after 3 seconds. Tools ask before running again.');
    assert.match(yoloEndedText(undefined), /^Yolo mode ended: its time ran out/);
  });
});
