import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/protocol';
import { eventCheckFromEnv, INVALID_EVENT_EXIT_CODE } from '../../../src/runtime/rpc/event-check';

const bad = { type: 'error', sessionId: 's1', runId: 'r1', code: 'ENOENT', error: 'no such file' } as unknown as AgentEvent;
const good = { type: 'error', sessionId: 's1', runId: 'r1', code: 'internal', error: 'no such file' } as AgentEvent;

describe('outgoing event check', () => {
  it('is off in ordinary runs', () => {
    assert.equal(eventCheckFromEnv({}, () => undefined, () => undefined), undefined);
  });

  it('under AGENTCLI_VALIDATE_EVENTS=1 an event the protocol does not allow stops the runtime with the problem', () => {
    const lines: string[] = [];
    const exits: number[] = [];
    const check = eventCheckFromEnv({ AGENTCLI_VALIDATE_EVENTS: '1' }, (l) => lines.push(l), (c) => exits.push(c));
    check?.(good);
    assert.deepEqual(exits, []);
    check?.(bad);
    assert.deepEqual(exits, [INVALID_EVENT_EXIT_CODE]);
    assert.match(lines[0] ?? '', /event the protocol does not allow \(error\).*code/);
  });

  it('under SERVICE_DEBUG it only logs', () => {
    const lines: string[] = [];
    const exits: number[] = [];
    eventCheckFromEnv({ SERVICE_DEBUG: 'true' }, (l) => lines.push(l), (c) => exits.push(c))?.(bad);
    assert.equal(lines.length, 1);
    assert.deepEqual(exits, []);
  });
});
