import assert from 'node:assert/strict';
import { CONTEXT_KEYS, ContextKeys, panelStateKeys } from '../../src/extension/chat/context-keys';

describe('context keys for the command palette', () => {
  it('follow the panel state: running and yolo', () => {
    assert.deepEqual(panelStateKeys({ running: true, yolo: { active: false } }), { [CONTEXT_KEYS.running]: true, [CONTEXT_KEYS.yolo]: false });
  });

  it('are set only when a value changes', () => {
    const calls: Array<[string, boolean]> = [];
    const keys = new ContextKeys((k, v) => calls.push([k, v]));
    keys.set({ a: true, b: false });
    keys.set({ a: true, b: false });
    keys.set({ a: false, b: false });
    assert.deepEqual(calls, [['a', true], ['b', false], ['a', false]]);
  });
});
