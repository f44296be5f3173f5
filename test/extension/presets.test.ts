import assert from 'node:assert/strict';
import { LOCALRUNNER_PRESETS as RUNTIME_PRESETS, LOCALRUNNER_PRESET_NAMES } from '../../src/runtime/config/presets';
import { LOCALRUNNER_PRESETS, presetPickItems, presetSettings, presetValuesText } from '../../src/extension/settings/presets';
import { configFromSettings } from '../../src/extension/settings/to-config';
import { PROVIDER_SETTINGS } from '../../src/extension/settings/table';

describe('local runner presets in the extension', () => {
  it('are the runtime\'s presets, in its order, with the same values', () => {
    assert.deepEqual(LOCALRUNNER_PRESETS.map((p) => p.name), [...LOCALRUNNER_PRESET_NAMES]);
    for (const p of LOCALRUNNER_PRESETS) {
      const r = RUNTIME_PRESETS[p.name];
      assert.deepEqual({ numCtx: p.numCtx, keepAlive: p.keepAlive, description: p.description }, { numCtx: r.numCtx, keepAlive: r.keepAlive, description: r.description });
    }
  });

  it('write existing agentcli.localrunner.* settings with values the settings accept, mirrored as the runtime config', () => {
    for (const p of LOCALRUNNER_PRESETS) {
      const values = new Map<string, unknown>(presetSettings(p));
      for (const key of values.keys()) assert.ok(PROVIDER_SETTINGS.some((s) => s.key === key), `${key} is not a setting`);
      const { config, problems } = configFromSettings((k) => values.get(k), {});
      assert.deepEqual(problems, [], `${p.name}: ${problems.map((x) => x.message).join('; ')}`);
      assert.deepEqual(config, { localrunner: { numCtx: p.numCtx, keepAlive: p.keepAlive } });
    }
  });

  it('quick-pick rows show each preset\'s values and mark the one in effect', () => {
    const current = new Map<string, unknown>([['localrunner.numCtx', 4096], ['localrunner.keepAlive', '10m']]);
    const items = presetPickItems((k) => current.get(k));
    assert.deepEqual(items.map((i) => i.label), ['8gb-cpu', '16gb-gpu', '32gb-gpu']);
    assert.equal(items[0]!.detail, 'Sets numCtx 2048 · keepAlive 1m');
    assert.equal(items[2]!.detail, 'Sets numCtx 8192 · keepAlive 30m');
    assert.deepEqual(items.map((i) => i.description.endsWith('(current)')), [false, true, false]);
    assert.equal(presetValuesText(LOCALRUNNER_PRESETS[1]!), 'numCtx 4096 · keepAlive 10m');
    // only a full match counts
    current.set('localrunner.keepAlive', '5m');
    assert.ok(presetPickItems((k) => current.get(k)).every((i) => !i.description.includes('(current)')));
  });
});
