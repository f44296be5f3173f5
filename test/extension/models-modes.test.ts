import assert from 'node:assert/strict';
import { modelPickItems, modelStatusText, providerPickItems } from '../../src/extension/models/model-items';
import { parseYoloMinutes, remainingText } from '../../src/extension/modes/yolo';

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
    assert.equal(items[1]!.description, '128,000 tokens context');
    assert.equal(items[2]!.detail, 'decisions only; not a chat model');
    assert.match(items[2]!.label, /circle-slash/);
  });

  it('lists the five providers and marks the current one', () => {
    const items = providerPickItems('ggufserver');
    assert.deepEqual(items.map((i) => i.provider), ['serviceai', 'localrunner', 'ggufserver', 'vendorapi', 'cloudhub']);
    assert.match(items[2]!.description ?? '', /current/);
    assert.equal(modelStatusText('ggufserver', 'stub'), '$(hubot) ggufserver/stub');
    assert.equal(modelStatusText('', ''), '$(hubot) agentcli');
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
  });
});
