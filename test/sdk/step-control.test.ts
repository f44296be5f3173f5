import assert from 'node:assert/strict';
import type { AgentStep } from '../../src/protocol';
import { InvalidArgumentError, hasToolCall, isStepCount } from '../../src/sdk';
import { normalizeStopWhen, shouldStop, snapshotStep } from '../../src/sdk/step-control';

const step = (n: number, ...tools: string[]): AgentStep => ({
  stepNumber: n,
  toolCalls: tools.map((tool) => ({ tool, args: {} })),
  toolResults: tools.map((tool) => ({ tool, success: true, output: 'ok' })),
});

describe('sdk step control conditions', () => {
  it('isStepCount rejects non-positive and non-integer counts at call time', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '2' as unknown as number]) {
      assert.throws(() => isStepCount(bad), (e: unknown) => e instanceof InvalidArgumentError && /positive integer/.test(e.message));
    }
  });

  it('hasToolCall rejects an empty or blank name', () => {
    for (const bad of ['', '   ', undefined as unknown as string]) {
      assert.throws(() => hasToolCall(bad), (e: unknown) => e instanceof InvalidArgumentError && /non-empty/.test(e.message));
    }
  });

  it('isStepCount(n) is true once n steps completed', async () => {
    const two = isStepCount(2);
    assert.equal(await two({ steps: [step(1, 'read_file')] }), false);
    assert.equal(await two({ steps: [step(1, 'read_file'), step(2, 'grep')] }), true);
  });

  it('hasToolCall looks only at the latest step', async () => {
    const c = hasToolCall('write_file');
    assert.equal(await c({ steps: [step(1, 'write_file'), step(2, 'read_file')] }), false);
    assert.equal(await c({ steps: [step(1, 'read_file'), step(2, 'grep', 'write_file')] }), true);
    assert.equal(await c({ steps: [] }), false);
  });

  it('normalizeStopWhen accepts one or many conditions and rejects empty lists and non-functions', () => {
    assert.deepEqual(normalizeStopWhen(undefined), []);
    assert.equal(normalizeStopWhen(isStepCount(1)).length, 1);
    assert.equal(normalizeStopWhen([isStepCount(1), hasToolCall('x')]).length, 2);
    assert.throws(() => normalizeStopWhen([]), /empty array/);
    assert.throws(() => normalizeStopWhen([42 as never]), /stopWhen\[0\] is number/);
  });

  it('shouldStop evaluates every condition (async too) and stops when any is true', async () => {
    const seen: number[] = [];
    const a = async () => {
      seen.push(1);
      return false;
    };
    const b = () => {
      seen.push(2);
      return true;
    };
    assert.equal(await shouldStop([a, b], [step(1, 'x')]), true);
    assert.deepEqual(seen.sort(), [1, 2]);
    assert.equal(await shouldStop([a], [step(1, 'x')]), false);
  });

  it('shouldStop rejects when a condition throws or answers a non-boolean', async () => {
    await assert.rejects(shouldStop([() => { throw new Error('bad predicate'); }], []), /bad predicate/);
    await assert.rejects(shouldStop([() => 'yes' as never], []), /returned string/);
  });

  it('conditions get a snapshot: mutating it does not change the run', async () => {
    const steps = [step(1, 'x')];
    await shouldStop([({ steps: s }) => {
      assert.throws(() => (s as AgentStep[]).push(step(2)));
      return false;
    }], steps);
    assert.equal(steps.length, 1);
  });

  it('snapshotStep copies deeply and freezes every level; a `__proto__` key from the wire stays data', () => {
    const wire = JSON.parse('{"stepNumber":1,"toolCalls":[{"tool":"edit","args":{"path":"a","__proto__":{"polluted":true},"list":[1,{"k":"v"}]}}],"toolResults":[{"tool":"edit","success":true,"output":"ok"}]}') as AgentStep;
    const snap = snapshotStep(wire);
    assert.deepEqual(snap, wire);
    const args = snap.toolCalls[0]!.args as Record<string, unknown>;
    assert.ok(Object.isFrozen(snap) && Object.isFrozen(snap.toolCalls) && Object.isFrozen(args) && Object.isFrozen(args['list']));
    assert.ok(Object.isFrozen((args['list'] as unknown[])[1]));
    assert.equal(Object.getPrototypeOf(args), Object.prototype, 'the prototype is not replaced');
    assert.deepEqual(Object.getOwnPropertyDescriptor(args, '__proto__')?.value, { polluted: true });
    assert.equal((args as { polluted?: unknown }).polluted, undefined);
    (wire.toolCalls[0]!.args as Record<string, unknown>)['path'] = 'changed';
    assert.equal(args['path'], 'a', 'the snapshot is detached from the step it copies');
  });
});
