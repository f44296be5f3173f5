import assert from 'node:assert/strict';
import { createStyle } from '../../../../src/runtime/cli/interactive/ansi';
import { catalogRefusal } from '../../../../src/runtime/cli/interactive/catalog-check';
import { formatModelLine, formatTokenCount, parseModelPick } from '../../../../src/runtime/cli/interactive/model-picker';
import type { ModelInfo } from '../../../../src/runtime/providers/types';

const models: ModelInfo[] = [
  { id: 'fantail', available: true, contextWindow: 256_000 },
  { id: 'moa', available: true, contextWindow: 1_000_000 },
  { id: 'weka', available: false, reason: 'answers typed decisions only, not chat' },
  { id: 'other', available: false },
];
const plain = createStyle(false);

describe('interactive model picker', () => {
  it('lists models numbered, marks the current one, and shows why an unavailable one cannot be used', () => {
    assert.deepEqual(
      models.map((m, i) => formatModelLine(m, i, 'moa', plain)),
      [
        '  1. fantail 256K context',
        '  2. moa 1M context (current)',
        '  3. weka  unavailable: answers typed decisions only, not chat',
        '  4. other  unavailable: not allowed for this account',
      ],
    );
  });

  it('picks an available model by number; an empty answer keeps the current one', () => {
    assert.deepEqual(parseModelPick(' 2 ', models, 'fantail'), { kind: 'pick', model: models[1] });
    assert.deepEqual(parseModelPick('', models, 'fantail'), { kind: 'keep' });
  });

  it('refuses unavailable models with their reason, and numbers out of range', () => {
    assert.deepEqual(parseModelPick('3', models, 'fantail'), { kind: 'error', message: 'weka cannot be chosen: answers typed decisions only, not chat' });
    for (const answer of ['0', '5', '1.5', 'moa', '-1']) {
      const pick = parseModelPick(answer, models, 'fantail');
      assert.equal(pick.kind, 'error', answer);
      if (pick.kind === 'error') assert.match(pick.message, /is not a model number: type 1 to 4, or press Enter to keep fantail/);
    }
  });

  it('/model <id> on the hosted catalog: listed and available passes; outside the plan is refused with the plan that includes it', () => {
    const free: ModelInfo[] = [
      { id: 'fantail', available: true },
      { id: 'moa', available: false, reason: 'not in your plan: included from the Pro plan (Pro, Pro+, Max, Team, Enterprise)' },
    ];
    assert.equal(catalogRefusal('fantail', free), undefined);
    assert.equal(catalogRefusal('serviceai:fantail', free), undefined, 'aliases resolve to the bare id');
    const moa = catalogRefusal('moa', free);
    assert.match(moa?.message ?? '', /^"moa" is not in your plan: included from the Pro plan/);
    assert.match(moa?.remedy ?? '', /upgrade to a plan that includes "moa"/);
    const unknown = catalogRefusal('thirdparty-9', free);
    assert.match(unknown?.message ?? '', /"thirdparty-9" is not in your plan's catalog \(it lists fantail\)/);
  });

  it('formats token counts', () => {
    assert.equal(formatTokenCount(4096), '4K');
    assert.equal(formatTokenCount(262_144), '262K');
    assert.equal(formatTokenCount(1_000_000), '1M');
    assert.equal(formatTokenCount(512), '512');
  });
});
