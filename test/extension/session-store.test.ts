import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/protocol/events';
import type { ChangeBatch } from '../../src/protocol/records';
import { SessionStore } from '../../src/extension/session/session-store';

const s = 's1';
const turn = { sessionId: s, runId: 'r1', turnId: 't1' };
const batch: ChangeBatch = {
  id: 'b1',
  runId: 'r1',
  status: 'pending',
  changes: [{ id: 'c1', path: 'a.txt', absolutePath: '/w/a.txt', kind: 'create', additions: 1, deletions: 0, revision: 1, originalBytes: null, proposedBytes: 2 }],
};

function feed(store: SessionStore, events: AgentEvent[]): void {
  for (const e of events) store.apply(e);
}

describe('extension session store (panel snapshot)', () => {
  it('builds the init snapshot from prompts and streamed events', () => {
    const store = new SessionStore();
    store.addPrompt('p1', 'hello', []);
    feed(store, [
      { type: 'agent_start', sessionId: s, runId: 'r1', prompt: 'hello' },
      { type: 'message_update', ...turn, messageId: 'm1', delta: 'Hi ' },
      { type: 'message_update', ...turn, messageId: 'm1', delta: 'there' },
    ]);
    const init = store.initMessage();
    assert.equal(init.type, 'init');
    if (init.type !== 'init') return;
    assert.equal(init.state.running, true);
    assert.deepEqual(init.items.map((i) => i.kind), ['user', 'assistant']);
    const assistant = init.items[1];
    assert.ok(assistant?.kind === 'assistant' && assistant.text === 'Hi there' && assistant.streaming);
  });

  it('tracks pending permission requests with their acknowledgement, and clears them when the run ends', () => {
    const store = new SessionStore();
    feed(store, [
      { type: 'agent_start', sessionId: s, runId: 'r1', prompt: 'x' },
      { type: 'permission_request', ...turn, requestId: 'q1', toolCallId: 'tc', tool: 'run_command', description: 'Run: ls', command: 'ls', suggestedRules: ['Bash(ls)'], choices: ['once', 'deny'] },
      { type: 'directory_access_request', ...turn, requestId: 'd1', toolCallId: 'tc2', path: '/etc', reason: 'read' },
    ]);
    store.permissions.get('q1')!.acknowledged = true;
    const init = store.initMessage();
    assert.ok(init.type === 'init');
    assert.deepEqual(init.pendingPermissions, [{ requestId: 'q1', tool: 'run_command', description: 'Run: ls', choices: ['once', 'deny'], acknowledged: true }]);
    assert.equal(init.pendingDirectoryAccess?.[0]?.path, '/etc');
    feed(store, [{ type: 'agent_end', sessionId: s, runId: 'r1', status: 'aborted', text: '' }]);
    assert.equal(store.permissions.size, 0);
    assert.equal(store.directories.size, 0);
    assert.equal(store.state.running, false);
  });

  it('keeps a pending batch through a runtime loss and a restart that does not know it', () => {
    const store = new SessionStore();
    feed(store, [{ type: 'change_batch_ready', sessionId: s, runId: 'r1', batch }]);
    store.runtimeLost();
    store.adoptRuntimeState({
      sessionId: 's2', cwd: '/w', status: 'idle', provider: 'ggufserver', model: 'm', permissionMode: 'interactive', planMode: false,
      yolo: { active: false }, pendingBatch: null, pendingPermissions: [], pendingDirectoryAccess: [], messageCount: 0,
    });
    assert.equal(store.batch?.id, 'b1');
    const init = store.initMessage();
    assert.ok(init.type === 'init');
    assert.deepEqual(init.pendingBatch, { batchId: 'b1', runId: 'r1', status: 'pending', files: [{ changeId: 'c1', path: 'a.txt', kind: 'create', additions: 1, deletions: 0 }] });
    assert.equal(init.state.provider, 'ggufserver');
    store.batchDecided('b1', [{ changeId: 'c1', path: 'a.txt', status: 'applied' }]);
    assert.equal(store.batch, null);
  });

  it('carries the sandbox state and the waiting plan from getState; accepting the plan ends plan mode and clears it', () => {
    const store = new SessionStore();
    const steps = [{ title: 'Read', status: 'pending' as const }];
    store.adoptRuntimeState({
      sessionId: 's1', cwd: '/w', status: 'idle', provider: 'ggufserver', model: 'm', permissionMode: 'interactive', planMode: true,
      yolo: { active: false }, pendingBatch: null, pendingPermissions: [], pendingDirectoryAccess: [], messageCount: 2,
      sandbox: { mode: 'workspace-write', available: false, reason: 'bwrap is missing: install bubblewrap', network: false },
      proposedPlan: { planId: 'p1', runId: 'r1', steps },
    });
    let init = store.initMessage();
    assert.ok(init.type === 'init');
    assert.deepEqual(init.state.sandbox, { mode: 'workspace-write', available: false, reason: 'bwrap is missing: install bubblewrap', network: false });
    assert.deepEqual(init.proposedPlan, { planId: 'p1', runId: 'r1', steps });
    assert.deepEqual(init.items.map((i) => i.kind === 'plan' && i.status), ['proposed'], 'the waiting plan is a card in the snapshot');
    store.planAnswered('p1', 'accept');
    init = store.initMessage();
    assert.ok(init.type === 'init');
    assert.equal(init.proposedPlan, null);
    assert.equal(init.state.planMode, false);
    assert.deepEqual(init.items.map((i) => i.kind === 'plan' && i.status), ['accepted']);
    feed(store, [{ type: 'plan_proposed', ...turn, planId: 'p2', steps, text: '1. Read' }]);
    assert.equal(store.proposedPlan?.planId, 'p2');
    store.newChat();
    assert.equal(store.proposedPlan, null);
  });

  it('follows an open batch from updates that carry only the files that changed', () => {
    const store = new SessionStore();
    const change = (id: string, additions: number, revision = 1) => ({ ...batch.changes[0]!, id, path: `${id}.txt`, absolutePath: `/w/${id}.txt`, additions, revision });
    const update = (changes: ReturnType<typeof change>[], removed: string[], fileCount: number): AgentEvent =>
      ({ type: 'change_batch_updated', sessionId: s, runId: 'r1', batchId: 'b1', status: 'open', changes, removed, fileCount });
    feed(store, [update([change('c1', 1)], [], 1), update([change('c2', 5)], [], 2), update([change('c1', 3, 2)], [], 2)]);
    assert.deepEqual(store.batch?.changes.map((c) => [c.id, c.additions, c.revision]), [['c1', 3, 2], ['c2', 5, 1]], 'a changed file keeps its place');
    feed(store, [update([], ['c1'], 1)]);
    assert.deepEqual(store.batch?.changes.map((c) => c.id), ['c2']);
    assert.equal(store.batch?.status, 'open');
    const init = store.initMessage();
    assert.ok(init.type === 'init' && init.pendingBatch?.files.length === 1 && init.pendingBatch.files[0]?.additions === 5);
  });

  it('marks a refused prompt failed and keeps context chips until sent', () => {
    const store = new SessionStore();
    store.addContext({ id: 'sel:a', kind: 'selection', path: 'a.ts', text: 'x', startLine: 1, endLine: 1 });
    store.addContext({ id: 'sel:a', kind: 'selection', path: 'a.ts', text: 'y', startLine: 1, endLine: 1 });
    assert.equal(store.context.length, 1, 'same id replaces the chip');
    store.addPrompt('p1', 'go', store.context);
    store.promptFailed('p1', 'Proposed changes are waiting', 'Decide first');
    const items = store.transcript.items;
    assert.ok(items[0]?.kind === 'user' && items[0].failed === true);
    assert.ok(items[1]?.kind === 'error' && items[1].remedy === 'Decide first');
    store.removeContext('sel:a');
    assert.deepEqual(store.context, []);
  });
});
