import assert from 'node:assert/strict';
import type { AgentEvent, ChangeBatch } from '../../src/protocol';
import { applyEvent, createTranscript, findItem, recordPermissionAlternative, type TranscriptModel } from '../../src/shared/chat/model/transcriptReducer';
import { descriptionRepeatsCommand, directoryRequestText, rulesExplanation } from '../../webview-ui/src/model/requestText';
import { toolLabel } from '../../src/shared/chat/model/toolLabels';
import type { ItemOf } from '../../src/shared/chat/transcriptItems';

const ids = { sessionId: 's1', runId: 'r1', turnId: 't1' };
const feed = (m: TranscriptModel, events: AgentEvent[]) => events.map((e) => applyEvent(m, e));
const order = (m: TranscriptModel) => m.items.map((i) => i.id);

function batch(status: ChangeBatch['status'], paths: string[]): ChangeBatch {
  return {
    id: 'b1', runId: 'r1', status,
    changes: paths.map((p, i) => ({ id: `c${i}`, path: p, absolutePath: `/w/${p}`, kind: 'modify', additions: 1, deletions: 1, revision: 1, originalBytes: 1, proposedBytes: 1 })),
  };
}
const write = (k: string, path: string): AgentEvent[] => [
  { type: 'tool_start', ...ids, toolCallId: k, toolName: 'write_file', args: { path, content: 'x' } },
  { type: 'tool_end', ...ids, toolCallId: k, toolName: 'write_file', durationMs: 2, success: true, output: 'ok' },
];
const permission = (requestId: string, toolCallId: string): AgentEvent => ({
  type: 'permission_request', ...ids, requestId, toolCallId, tool: 'run_command', description: 'Run: echo hi', command: 'echo hi', suggestedRules: ['Bash(echo:*)'], choices: ['once', 'deny', 'alternative'],
});
const tool = (m: TranscriptModel, k: string) => findItem(m, `tool:${k}`, 'tool');
const toolItem = (over: Partial<ItemOf<'tool'>>): ItemOf<'tool'> => ({
  kind: 'tool', id: 'tool:k', toolCallId: 'k', runId: 'r1', toolName: 'run_command', argsSummary: '', output: '', outputTruncated: false, status: 'success', ...over,
});

describe('transcript links: batch card, proposed writes, answers on tool cards', () => {
  it('moves the batch card below the tool cards it summarizes', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'agent_start', ...ids, prompt: 'edit two files' });
    feed(m, write('k1', 'a.ts'));
    applyEvent(m, { type: 'change_batch_updated', ...ids, batchId: 'b1', status: 'open', changes: batch('open', ['a.ts']).changes, removed: [], fileCount: 1 });
    feed(m, write('k2', 'b.ts'));
    assert.deepEqual(order(m), ['user:r1', 'tool:k1', 'batch:b1', 'tool:k2'], 'precondition: the first update placed the card between the tools');
    const ch = applyEvent(m, { type: 'change_batch_ready', ...ids, batch: batch('pending', ['a.ts', 'b.ts']) });
    assert.deepEqual(order(m), ['user:r1', 'tool:k1', 'tool:k2', 'batch:b1']);
    assert.equal(ch.reordered, true);
    assert.deepEqual([...m.index.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id), order(m), 'the index follows the move');
  });

  it('shows batch-mode writes as proposed, then applied, rejected or changed on disk per file (matched by path)', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'agent_start', ...ids, prompt: 'edit' });
    feed(m, [...write('k1', 'a.ts'), ...write('k2', '/w/src/b.ts'), ...write('k3', './c.ts')]);
    assert.equal(tool(m, 'k1')?.change, undefined, 'no batch yet: a plain write');
    assert.equal(toolLabel(tool(m, 'k1')!), 'Wrote a.ts');
    const ch = applyEvent(m, { type: 'change_batch_ready', ...ids, batch: batch('pending', ['a.ts', 'src/b.ts', 'c.ts']) });
    assert.deepEqual(['k1', 'k2', 'k3'].map((k) => tool(m, k)?.change), ['proposed', 'proposed', 'proposed']);
    assert.ok(ch.ids.includes('tool:k1') && ch.ids.includes('tool:k2'), 'the tool cards are re-rendered');
    assert.equal(toolLabel(tool(m, 'k1')!), 'Proposed a.ts');
    applyEvent(m, {
      type: 'change_batch_decided', sessionId: 's1', batchId: 'b1',
      results: [{ changeId: 'c0', path: 'a.ts', status: 'applied' }, { changeId: 'c1', path: 'src/b.ts', status: 'rejected' }, { changeId: 'c2', path: 'c.ts', status: 'stale' }],
    });
    assert.deepEqual(['k1', 'k2', 'k3'].map((k) => tool(m, k)?.change), ['applied', 'rejected', 'stale']);
    assert.deepEqual(['k1', 'k2', 'k3'].map((k) => toolLabel(tool(m, k)!)), ['Wrote a.ts', 'Rejected b.ts', 'Not written: c.ts']);
  });

  it('puts a denial with its alternative on the tool card: one line for one event', () => {
    const m = createTranscript();
    feed(m, [{ type: 'agent_start', ...ids, prompt: 'clean' }, permission('q1', 'k1')]);
    recordPermissionAlternative(m, 'q1', 'use npm run clean');
    feed(m, [
      { type: 'permission_resolved', ...ids, requestId: 'q1', outcome: 'denied', scope: 'once' },
      { type: 'tool_start', ...ids, toolCallId: 'k1', toolName: 'run_command', args: { command: 'echo hi' } },
    ]);
    const ch = applyEvent(m, { type: 'tool_end', ...ids, toolCallId: 'k1', toolName: 'run_command', durationMs: 3, success: false, error: 'the user denied Run: echo hi and asks you to do this instead: use npm run clean' });
    assert.deepEqual(order(m), ['user:r1', 'tool:k1'], 'the request line made way for the tool card');
    assert.deepEqual(tool(m, 'k1')?.decisions, [{ kind: 'permission', outcome: 'denied', scope: 'once', alternative: 'use npm run clean' }]);
    assert.equal(tool(m, 'k1')?.status, 'failure');
    assert.equal(toolLabel(tool(m, 'k1')!), 'Command not run');
    assert.deepEqual(ch.ids, ['tool:k1']);
  });

  it('shows a stop during a permission question as one cancelled tool card, without a "Stopped." line', () => {
    const m = createTranscript();
    feed(m, [
      { type: 'agent_start', ...ids, prompt: 'run' },
      { type: 'directory_access_request', ...ids, requestId: 'd1', toolCallId: 'k1', path: '/out', reason: 'Read /out/x needs read access outside the workspace' },
      { type: 'directory_access_resolved', ...ids, requestId: 'd1', outcome: 'allowed' },
      permission('q1', 'k1'),
      { type: 'permission_resolved', ...ids, requestId: 'q1', outcome: 'cancelled' },
      { type: 'tool_start', ...ids, toolCallId: 'k1', toolName: 'run_command', args: { command: 'echo hi' } },
      { type: 'tool_end', ...ids, toolCallId: 'k1', toolName: 'run_command', durationMs: 5, success: false, error: 'aborted by the user' },
      { type: 'agent_end', ...ids, status: 'aborted', text: '' },
    ]);
    assert.deepEqual(order(m), ['user:r1', 'tool:k1']);
    assert.equal(tool(m, 'k1')?.status, 'cancelled', 'an aborted tool is cancelled, not failed');
    assert.deepEqual(tool(m, 'k1')?.decisions?.map((d) => `${d.kind}:${d.outcome}`), ['directory:allowed', 'permission:cancelled']);
  });

  it('keeps a request line for a request with no tool card yet', () => {
    const m = createTranscript();
    feed(m, [permission('q1', 'k1'), { type: 'permission_resolved', ...ids, requestId: 'q1', outcome: 'allowed', scope: 'session' }]);
    assert.deepEqual(order(m), ['perm:q1']);
  });

  it('labels tool cards in words', () => {
    assert.equal(toolLabel(toolItem({ toolName: 'run_command' })), 'Ran command');
    assert.equal(toolLabel(toolItem({ toolName: 'run_command', status: 'running' })), 'Running command');
    assert.equal(toolLabel(toolItem({ toolName: 'read_file' })), 'Read file');
    assert.equal(toolLabel(toolItem({ toolName: 'grep' })), 'Searched');
    assert.equal(toolLabel(toolItem({ toolName: 'list_files' })), 'Listed files');
    assert.equal(toolLabel(toolItem({ toolName: 'editor_diagnostics' })), 'Editor diagnostics');
    assert.equal(toolLabel(toolItem({ toolName: 'write_file', path: 'docs/notes.txt' })), 'Wrote notes.txt');
    assert.equal(toolLabel(toolItem({ toolName: 'write_file', path: 'notes.txt', change: 'proposed' })), 'Proposed notes.txt');
    assert.equal(toolLabel(toolItem({ toolName: 'some_mcp_tool' })), 'Some mcp tool');
  });

  it('words permission and directory requests plainly', () => {
    assert.equal(descriptionRepeatsCommand('Run: echo hi  there', 'echo hi there'), true);
    assert.equal(descriptionRepeatsCommand('Write notes.txt', undefined), false);
    assert.equal(descriptionRepeatsCommand('Delete the build folder', 'rm -rf build'), false);
    const text = (rules: string[], session = true, always = true) => rulesExplanation(rules, { session, always }).map((p) => (p.code === true ? `\`${p.text}\`` : p.text)).join('');
    assert.equal(text(['Bash(echo:*)']), "For this session / Always: allows any `echo …` command. Always also saves the rule to the project's .agentcli/config.json.");
    assert.equal(text(['Bash(npm test)'], true, false), 'For this session: allows the command `npm test`.');
    assert.equal(text(['Write(src/**)', 'Read(docs)'], false, true), "Always: allows writing `src/**` and reading `docs`. Always also saves the rule to the project's .agentcli/config.json.");
    assert.equal(text(['Bash(echo:*)'], false, false), '', 'nothing to explain without session/always');
    assert.deepEqual(directoryRequestText('/home/u/outside', 'Read /home/u/outside/secret-notes.txt needs read access outside the workspace'),
      { lead: 'The agent wants to read secret-notes.txt in:', reason: undefined });
    assert.deepEqual(directoryRequestText('/private/tmp/w/outside', 'Read /tmp/w/outside/notes.txt needs read access outside the workspace'),
      { lead: 'The agent wants to read notes.txt in:', reason: undefined }, 'a symlinked folder is still recognized');
    assert.deepEqual(directoryRequestText('/o', 'Write /o/a/b.txt needs write access outside the workspace'), { lead: 'The agent wants to write a/b.txt in:', reason: undefined });
    assert.deepEqual(directoryRequestText('/o', 'List files in /o needs read access outside the workspace'), { lead: 'The agent wants read access to:', reason: undefined });
    assert.deepEqual(directoryRequestText('/o', 'to compare configs'), { lead: 'The agent wants access outside the workspace, to:', reason: 'to compare configs' });
  });
});
