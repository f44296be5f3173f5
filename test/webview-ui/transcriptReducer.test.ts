import assert from 'node:assert/strict';
import type { AgentEvent, ChangeBatch } from '../../src/protocol';
import { MAX_TOOL_OUTPUT } from '../../src/shared/chat/model/transcriptModel';
import {
  addError,
  addUserPrompt,
  applyEvent,
  clearConversation,
  createTranscript,
  findItem,
  markMentionsRefused,
  markPromptFailed,
  mergePending,
  type TranscriptModel,
} from '../../src/shared/chat/model/transcriptReducer';
import { summarizeToolArgs } from '../../src/shared/chat/model/argsSummary';

const ids = { sessionId: 's1', runId: 'r1', turnId: 't1' };
const feed = (m: TranscriptModel, events: AgentEvent[]) => events.map((e) => applyEvent(m, e));

function batch(status: ChangeBatch['status'], paths: string[]): ChangeBatch {
  return {
    id: 'b1',
    runId: 'r1',
    status,
    changes: paths.map((p, i) => ({ id: `c${i}`, path: p, absolutePath: `/w/${p}`, kind: i === 0 ? 'create' : 'modify', additions: 2, deletions: i, revision: 1, originalBytes: i === 0 ? null : 1, proposedBytes: 1 })),
  };
}

describe('transcript reducer', () => {
  it('binds a prompt sent from the panel to its run instead of duplicating it', () => {
    const m = createTranscript();
    addUserPrompt(m, { promptId: 'p1', text: 'hello', context: [] });
    const ch = applyEvent(m, { type: 'agent_start', ...ids, prompt: 'hello' });
    assert.deepEqual(ch.ids, [], 'bound without a redraw: the view shows no run ids');
    assert.equal(m.items.length, 1);
    assert.equal(findItem(m, 'user:p1', 'user')?.runId, 'r1');
    assert.equal(m.activeRunId, 'r1');
  });

  it('adds a user item for a run started elsewhere (e.g. a command)', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'agent_start', ...ids, prompt: 'explain this' });
    assert.equal(m.items.length, 1);
    assert.equal(m.items[0]?.kind === 'user' && m.items[0].text, 'explain this');
  });

  it('marks a refused prompt failed and gives its text back', () => {
    const m = createTranscript();
    addUserPrompt(m, { promptId: 'p1', text: 'again', context: [] });
    const r = markPromptFailed(m, 'p1');
    assert.equal(r.text, 'again');
    assert.equal(findItem(m, 'user:p1', 'user')?.failed, true);
    applyEvent(m, { type: 'agent_start', ...ids, prompt: 'next' });
    assert.equal(m.items.length, 2, 'a failed prompt is not bound to the next run');
  });

  it('marks the @ mentions of a sent prompt that were not attached, once each; an unknown prompt is left alone', () => {
    const m = createTranscript();
    addUserPrompt(m, { promptId: 'p1', text: 'see @src/a.ts and @../secret', context: [] });
    assert.deepEqual(markMentionsRefused(m, 'p1', ['../secret']).ids, ['user:p1']);
    markMentionsRefused(m, 'p1', ['../secret', 'gone.ts']);
    assert.deepEqual(findItem(m, 'user:p1', 'user')?.refusedMentions, ['../secret', 'gone.ts']);
    assert.deepEqual(markMentionsRefused(m, 'nope', ['x']).ids, []);
    assert.deepEqual(markMentionsRefused(m, 'p1', []).ids, []);
  });

  it('streams assistant text by deltas and takes the final content on message_end', () => {
    const m = createTranscript();
    feed(m, [
      { type: 'message_start', ...ids, messageId: 'm1', role: 'assistant' },
      { type: 'message_update', ...ids, messageId: 'm1', delta: 'Hel' },
      { type: 'message_update', ...ids, messageId: 'm1', delta: 'lo' },
    ]);
    const item = findItem(m, 'msg:m1', 'assistant');
    assert.equal(item?.text, 'Hello');
    assert.equal(item?.streaming, true);
    const ch = applyEvent(m, { type: 'message_end', ...ids, messageId: 'm1', content: 'Hello!' });
    assert.deepEqual(ch.ids, ['msg:m1']);
    assert.equal(item?.text, 'Hello!');
    assert.equal(item?.streaming, false);
  });

  it('gives a tool-only assistant message no bubble', () => {
    const m = createTranscript();
    feed(m, [
      { type: 'message_start', ...ids, messageId: 'm1', role: 'assistant' },
      { type: 'message_end', ...ids, messageId: 'm1', content: '' },
    ]);
    assert.equal(m.items.length, 0);
  });

  it('follows a tool card from start to end with bounded streamed output', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'tool_start', ...ids, toolCallId: 'k1', toolName: 'bash', args: { command: 'npm   test', timeout: 5 } });
    const card = findItem(m, 'tool:k1', 'tool');
    assert.equal(card?.argsSummary, 'npm test (+1 more)');
    assert.equal(card?.status, 'running');
    applyEvent(m, { type: 'tool_update', ...ids, toolCallId: 'k1', toolName: 'bash', output: 'x'.repeat(MAX_TOOL_OUTPUT) });
    applyEvent(m, { type: 'tool_update', ...ids, toolCallId: 'k1', toolName: 'bash', output: 'END' });
    assert.equal(card?.output.length, MAX_TOOL_OUTPUT);
    assert.ok(card?.output.endsWith('END'));
    assert.equal(card?.outputTruncated, true);
    applyEvent(m, { type: 'tool_end', ...ids, toolCallId: 'k1', toolName: 'bash', durationMs: 42, success: false, error: 'exit 1' });
    assert.equal(card?.status, 'failure');
    assert.equal(card?.durationMs, 42);
    assert.equal(card?.error, 'exit 1');
  });

  it('uses the tool_end output when nothing was streamed', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'tool_start', ...ids, toolCallId: 'k1', toolName: 'read', args: { path: 'a.ts' } });
    applyEvent(m, { type: 'tool_end', ...ids, toolCallId: 'k1', toolName: 'read', durationMs: 1, success: true, output: 'content' });
    assert.equal(findItem(m, 'tool:k1', 'tool')?.output, 'content');
    assert.equal(findItem(m, 'tool:k1', 'tool')?.status, 'success');
  });

  it('resolves permission and directory cards, and cancels pending ones when the run is aborted', () => {
    const m = createTranscript();
    const perm = (requestId: string): AgentEvent => ({
      type: 'permission_request', ...ids, requestId, toolCallId: 'k', tool: 'bash', description: 'run', command: 'rm x', suggestedRules: ['Bash(rm:*)'], choices: ['once', 'deny'],
    });
    feed(m, [
      { type: 'agent_start', ...ids, prompt: 'go' },
      perm('q1'),
      perm('q2'),
      { type: 'directory_access_request', ...ids, requestId: 'd1', toolCallId: 'k', path: '/etc', reason: 'read config' },
      { type: 'tool_start', ...ids, toolCallId: 'k9', toolName: 'bash', args: {} },
    ]);
    applyEvent(m, { type: 'permission_resolved', ...ids, requestId: 'q1', outcome: 'allowed', scope: 'session' });
    assert.equal(findItem(m, 'perm:q1', 'permission')?.status, 'allowed');
    assert.equal(findItem(m, 'perm:q1', 'permission')?.scope, 'session');
    applyEvent(m, { type: 'permission_resolved', ...ids, requestId: 'q2', outcome: 'cancelled' });
    assert.equal(findItem(m, 'perm:q2', 'permission')?.status, 'cancelled');
    const end = applyEvent(m, { type: 'agent_end', ...ids, status: 'aborted', text: '' });
    assert.equal(findItem(m, 'dir:d1', 'directory')?.status, 'cancelled');
    assert.equal(findItem(m, 'tool:k9', 'tool')?.status, 'cancelled');
    assert.ok(end.ids.includes('dir:d1') && end.ids.includes('tool:k9'));
    assert.equal(m.items.at(-1)?.id, 'tool:k9', 'the stopped tool card says it: no separate "Stopped." line');
    assert.equal(m.activeRunId, undefined);
  });

  it('adds a "Stopped." line when the stop cancelled no tool card', () => {
    const m = createTranscript();
    feed(m, [
      { type: 'agent_start', ...ids, prompt: 'go' },
      { type: 'message_update', ...ids, messageId: 'm1', delta: 'Half an ans' },
      { type: 'agent_end', ...ids, status: 'aborted', text: '' },
    ]);
    assert.deepEqual(m.items.map((i) => i.kind === 'notice' ? i.text : i.kind), ['user', 'assistant', 'Stopped.']);
  });

  it('ignores resolution of a request it never saw', () => {
    const m = createTranscript();
    const ch = applyEvent(m, { type: 'permission_resolved', ...ids, requestId: 'zz', outcome: 'denied' });
    assert.deepEqual(ch.ids, []);
    assert.equal(m.items.length, 0);
  });

  it('keeps one card per change batch through updated, ready and decided', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'change_batch_updated', sessionId: 's1', runId: 'r1', batchId: 'b1', status: 'open', changes: batch('open', ['a.ts']).changes, removed: [], fileCount: 1 });
    applyEvent(m, { type: 'change_batch_ready', sessionId: 's1', runId: 'r1', batch: batch('pending', ['a.ts', 'b.ts']) });
    assert.equal(m.items.length, 1);
    const card = findItem(m, 'batch:b1', 'batch');
    assert.equal(card?.status, 'pending');
    assert.deepEqual(card?.files.map((f) => [f.path, f.kind, f.additions, f.deletions]), [['a.ts', 'create', 2, 0], ['b.ts', 'modify', 2, 1]]);
    applyEvent(m, { type: 'change_batch_decided', sessionId: 's1', batchId: 'b1', results: [{ changeId: 'c0', path: 'a.ts', status: 'applied' }, { changeId: 'c1', path: 'b.ts', status: 'stale' }] });
    assert.equal(card?.status, 'decided');
    assert.deepEqual(card?.results?.map((r) => r.status), ['applied', 'stale']);
  });

  it('merges open-batch updates that carry only the files they touched into one card', () => {
    const m = createTranscript();
    const [a, b] = batch('open', ['a.ts', 'b.ts']).changes;
    const update = (changes: ChangeBatch['changes'], removed: string[], fileCount: number): AgentEvent =>
      ({ type: 'change_batch_updated', sessionId: 's1', runId: 'r1', batchId: 'b1', status: 'open', changes, removed, fileCount });
    applyEvent(m, update([a!], [], 1));
    applyEvent(m, update([b!], [], 2));
    applyEvent(m, update([{ ...a!, additions: 9, revision: 2 }], [], 2));
    const card = findItem(m, 'batch:b1', 'batch');
    assert.deepEqual(card?.files.map((f) => [f.path, f.additions]), [['a.ts', 9], ['b.ts', 2]], 'a changed file keeps its place');
    applyEvent(m, update([], ['c0'], 1));
    assert.deepEqual(findItem(m, 'batch:b1', 'batch')?.files.map((f) => f.path), ['b.ts']);
    assert.equal(m.items.length, 1);
  });

  it('a tool_error event beside a failed tool_end adds no second error line; the tool card shows the failure', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'tool_start', ...ids, toolCallId: 'k1', toolName: 'run_command', args: { command: 'false' } });
    applyEvent(m, { type: 'tool_end', ...ids, toolCallId: 'k1', toolName: 'run_command', durationMs: 3, success: false, error: 'exit code 1' });
    applyEvent(m, { type: 'error', sessionId: 's1', runId: 'r1', toolCallId: 'k1', code: 'tool_error', error: 'run_command failed: exit code 1' });
    assert.equal(m.items.filter((i) => i.kind === 'error').length, 0);
    assert.equal(findItem(m, 'tool:k1', 'tool')?.status, 'failure');
    applyEvent(m, { type: 'agent_end', ...ids, status: 'error', text: '', error: { code: 'provider_error', message: 'down' } });
    assert.equal(m.items.filter((i) => i.kind === 'error').length, 1, 'a later run failure still shows');
  });

  it('shows error events with their remedy, once, and the run-end error only if none was shown', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'error', sessionId: 's1', runId: 'r1', code: 'rate_limited', error: 'slow down', remedy: 'wait a minute' });
    applyEvent(m, { type: 'agent_end', ...ids, status: 'error', text: '', error: { code: 'rate_limited', message: 'slow down' } });
    const errors = m.items.filter((i) => i.kind === 'error');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.kind === 'error' && errors[0].remedy, 'wait a minute');
    addError(m, { message: 'no runtime', remedy: 'restart' });
    assert.equal(m.items.at(-1)?.kind === 'error' && m.items.at(-1)?.id.startsWith('err:'), true);
  });

  it('adds cards for pending requests from a snapshot without duplicating existing ones', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'permission_request', ...ids, requestId: 'q1', toolCallId: 'k', tool: 'bash', description: 'd', suggestedRules: [], choices: ['once'] });
    mergePending(m, {
      permissions: [{ requestId: 'q1', tool: 'bash', description: 'd', choices: ['once'], acknowledged: true }, { requestId: 'q2', tool: 'write', description: 'w', choices: ['once', 'deny'], acknowledged: false }],
      directories: [{ requestId: 'd1', path: '/tmp', reason: 'r', acknowledged: false }],
      batch: { batchId: 'b9', runId: 'r1', status: 'pending', files: [] },
    });
    assert.deepEqual(m.items.map((i) => i.id), ['perm:q1', 'perm:q2', 'dir:d1', 'batch:b9']);
  });

  it('new chat keeps only an undecided batch', () => {
    const m = createTranscript();
    addUserPrompt(m, { promptId: 'p1', text: 'x', context: [] });
    applyEvent(m, { type: 'change_batch_ready', sessionId: 's1', runId: 'r1', batch: batch('pending', ['a.ts']) });
    const ch = clearConversation(m);
    assert.equal(ch.reset, true);
    assert.deepEqual(m.items.map((i) => i.id), ['batch:b1']);
    assert.equal(m.index.get('batch:b1'), 0);
  });

  it('summarizes tool arguments on one short line', () => {
    assert.equal(summarizeToolArgs({ path: 'src/a.ts' }), 'src/a.ts');
    assert.equal(summarizeToolArgs({ a: 1, b: 'two' }), 'a=1 b=two');
    assert.equal(summarizeToolArgs(undefined), '');
    assert.ok(summarizeToolArgs({ command: 'x'.repeat(500) }).length <= 120);
  });
});
