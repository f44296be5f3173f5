import assert from 'node:assert/strict';
import path from 'node:path';
import type { AgentEvent } from '../../../src/protocol';
import { OUTPUT_INTERVAL_MS, UpdateMapper, planEntries } from '../../../src/runtime/acp/event-updates';
import { historyUpdates } from '../../../src/runtime/acp/history-replay';
import { acpMcpServers, serverNameFor } from '../../../src/runtime/acp/mcp-servers';
import { directoryAnswer, permissionAnswer, permissionOptions } from '../../../src/runtime/acp/permission-options';
import { promptToRun } from '../../../src/runtime/acp/prompt-content';
import { callArguments, proposedDiff } from '../../../src/runtime/acp/proposed-diff';
import { shownOutput, toolTitle, MAX_SHOWN_OUTPUT_CHARS } from '../../../src/runtime/acp/tool-calls';

const ids = { sessionId: 's', runId: 'r', turnId: 't' };

describe('acp: permission options and answers', () => {
  it('offers session and always only when there is a rule to remember', () => {
    assert.deepEqual(permissionOptions([]).map((o) => o.optionId), ['once', 'deny']);
    const withRule = permissionOptions(['Write(src/**)']);
    assert.deepEqual(withRule.map((o) => o.optionId), ['once', 'session', 'always', 'deny']);
    assert.match(withRule[2]!.name, /save Write\(src\/\*\*\) to \.agentcli\/config\.json/);
  });

  it('maps the choice back; cancelled and unknown options are refusals', () => {
    assert.deepEqual(permissionAnswer({ outcome: 'selected', optionId: 'session' }), { allowed: true, scope: 'session' });
    assert.deepEqual(permissionAnswer({ outcome: 'cancelled' }), { allowed: false, scope: 'once' });
    assert.deepEqual(permissionAnswer({ outcome: 'selected', optionId: 'allow-everything' }), { allowed: false, scope: 'once' });
    assert.equal(directoryAnswer({ outcome: 'selected', optionId: 'always' }).allowed, false, 'a folder is never granted for ever');
    assert.deepEqual(directoryAnswer({ outcome: 'selected', optionId: 'once' }), { allowed: true, scope: 'once' });
  });
});

describe('acp: prompt content', () => {
  it('text makes the message; text resources and links become file context', () => {
    const run = promptToRun([
      { type: 'text', text: 'Fix it' },
      { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'const a = 1;' } },
      { type: 'resource_link', uri: 'file:///w/b.ts', name: 'b.ts' },
    ]);
    assert.equal(run.message, 'Fix it');
    assert.deepEqual(run.context, [
      { kind: 'file', path: path.resolve('/w/a.ts'), text: 'const a = 1;' },
      { kind: 'file', path: path.resolve('/w/b.ts') },
    ]);
  });

  it('refuses images, binary resources and an empty prompt with a message', () => {
    assert.throws(() => promptToRun([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]), /image content is not supported/);
    assert.throws(() => promptToRun([{ type: 'resource', resource: { uri: 'file:///x.bin', blob: 'AAAA' } }]), /binary/);
    assert.throws(() => promptToRun([{ type: 'text', text: '  ' }]), /the prompt is empty/);
  });
});

describe('acp: MCP servers from the client', () => {
  it('converts stdio and http servers to config entries', () => {
    const servers = acpMcpServers([
      { name: 'local', command: 'node', args: ['s.js'], env: [{ name: 'K', value: 'v' }] },
      { type: 'http', name: 'remote', url: 'https://example.test/mcp', headers: [{ name: 'Authorization', value: 'Bearer t' }] },
    ]);
    assert.equal(servers.local?.command, 'node');
    assert.deepEqual(servers.local?.env, { K: 'v' });
    assert.deepEqual(servers.remote?.headers, { Authorization: 'Bearer t' });
  });

  it('refuses duplicate names; display names become names our tool prefix can carry', () => {
    const s = { name: 'a', command: 'x', args: [], env: [] };
    assert.throws(() => acpMcpServers([s, s]), /two MCP servers are named "a"/);
    const names = Object.keys(acpMcpServers([{ ...s, name: 'Context 7' }, { ...s, name: 'Context-7' }, { ...s, name: 'a__b' }, { ...s, name: '..' }]));
    assert.deepEqual(names, ['Context-7', 'Context-7-2', 'a_b', '--']);
    assert.equal(serverNameFor('x'.repeat(40), new Set()), 'x'.repeat(32));
    assert.equal(serverNameFor('x'.repeat(40), new Set(['x'.repeat(32)])), `${'x'.repeat(30)}-2`);
    assert.equal(serverNameFor('___', new Set()), 'server');
  });
});

describe('acp: run events as session updates', () => {
  it('a tool call announced for a permission request is updated, not announced twice', () => {
    const m = new UpdateMapper('/w');
    const first = m.announce('c1', 'write_file', 'Write a.txt', ['a.txt']);
    assert.equal(first?.sessionUpdate, 'tool_call');
    assert.equal(m.announce('c1', 'write_file', 'Write a.txt'), undefined);
    const [start] = m.map({ type: 'tool_start', ...ids, toolCallId: 'c1', toolName: 'write_file', args: { path: 'a.txt', content: 'x' } } as AgentEvent);
    assert.equal(start?.sessionUpdate, 'tool_call_update');
  });

  it("a call's writes become diffs on its completion; another file's write waits for its own call", () => {
    const m = new UpdateMapper('/w');
    m.map({ type: 'tool_start', ...ids, toolCallId: 'c1', toolName: 'edit_file', args: { path: 'a.txt' } } as AgentEvent);
    m.recordWrite({ path: '/w/a.txt', oldText: 'old', newText: 'new' });
    m.recordWrite({ path: '/w/other.txt', oldText: null, newText: 'x' });
    const [end] = m.map({ type: 'tool_end', ...ids, toolCallId: 'c1', toolName: 'edit_file', durationMs: 1, success: true, output: 'Edited a.txt' } as AgentEvent);
    assert.ok(end?.sessionUpdate === 'tool_call_update');
    assert.deepEqual(end.content?.[0], { type: 'diff', path: '/w/a.txt', oldText: 'old', newText: 'new' });
    assert.equal(end.content?.length, 2, 'the diff and the output');
    assert.equal(end.status, 'completed');
  });

  it('streamed output is sent at most once per interval, each time with all output so far', () => {
    let now = 1000;
    const m = new UpdateMapper('/w', () => now);
    const chunk = (output: string) =>
      m.map({ type: 'tool_update', ...ids, toolCallId: 'c1', toolName: 'run_command', output } as AgentEvent);
    assert.equal(chunk('line 1\n').length, 1);
    assert.equal(chunk('line 2\n').length, 0, 'too soon after the last update');
    now += OUTPUT_INTERVAL_MS;
    const [later] = chunk('line 3\n');
    assert.ok(later?.sessionUpdate === 'tool_call_update');
    assert.deepEqual(later.content, [{ type: 'content', content: { type: 'text', text: 'line 1\nline 2\nline 3\n' } }]);
  });

  it('a long stream keeps its tail and counts what it dropped', () => {
    let now = 0;
    const m = new UpdateMapper('/w', () => now);
    let last;
    for (let i = 0; i < 5; i++) {
      now += OUTPUT_INTERVAL_MS;
      [last] = m.map({ type: 'tool_update', ...ids, toolCallId: 'c1', toolName: 'run_command', output: 'y'.repeat(MAX_SHOWN_OUTPUT_CHARS) } as AgentEvent);
    }
    assert.ok(last?.sessionUpdate === 'tool_call_update');
    const shown = last.content?.[0];
    assert.ok(shown?.type === 'content' && shown.content.type === 'text');
    assert.ok(shown.content.text.startsWith(`[… ${4 * MAX_SHOWN_OUTPUT_CHARS} earlier characters not shown]\n`), shown.content.text.slice(0, 60));
  });

  it('plan steps map to ACP plan entries (failed and skipped shown as completed, with a note)', () => {
    assert.deepEqual(
      planEntries([
        { title: 'Read', status: 'done' },
        { title: 'Edit', status: 'in_progress' },
        { title: 'Test', status: 'failed' },
        { title: 'Ship', status: 'pending' },
      ]).map((e) => [e.content, e.status]),
      [
        ['Read', 'completed'],
        ['Edit', 'in_progress'],
        ['Test (failed)', 'completed'],
        ['Ship', 'pending'],
      ],
    );
  });

  it('long output is cut from the front, saying how much', () => {
    const out = shownOutput('x'.repeat(MAX_SHOWN_OUTPUT_CHARS + 10));
    assert.match(out, /^\[… 10 earlier characters not shown\]/);
    assert.equal(toolTitle('run_command', { command: 'npm test\nnpm run lint' }), 'Run npm test …');
  });
});

describe('acp: a saved history replayed', () => {
  it('prompts, answers, tool calls and their results, in order', () => {
    const updates = historyUpdates(
      [
        { role: 'system', content: 'summary' },
        { role: 'user', content: 'read a' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
        { role: 'tool', content: 'A', toolCallId: 'c1', toolName: 'read_file' },
        { role: 'assistant', content: 'It says A.' },
      ],
      '/w',
    );
    assert.deepEqual(
      updates.map((u) => u.sessionUpdate),
      ['user_message_chunk', 'tool_call', 'tool_call_update', 'agent_message_chunk'],
    );
    const call = updates[1];
    assert.ok(call?.sessionUpdate === 'tool_call');
    assert.equal(call.title, 'Read a.txt');
    assert.deepEqual(call.locations, [{ path: '/w/a.txt' }]);
  });
});

describe('acp: the change a permission question previews', () => {
  const files: Record<string, string> = { '/w/a.ts': 'one two one\n' };
  const read = async (p: string) => files[p] ?? null;

  it('finds the call arguments in the conversation', () => {
    const history = [{ role: 'assistant' as const, content: '', toolCalls: [{ id: 'c9', name: 'write_file', arguments: '{"path":"x"}' }] }];
    assert.deepEqual(callArguments(history, 'c9'), { path: 'x' });
    assert.equal(callArguments(history, 'c1'), undefined);
  });

  it('previews writes and edits (one or all occurrences) inside the workspace only', async () => {
    assert.deepEqual(await proposedDiff('write_file', { path: 'new.ts', content: 'n' }, '/w', read), { path: '/w/new.ts', oldText: null, newText: 'n' });
    assert.equal((await proposedDiff('edit_file', { path: 'a.ts', old_text: 'one', new_text: '1' }, '/w', read))?.newText, '1 two one\n');
    assert.equal((await proposedDiff('edit_file', { path: 'a.ts', old_text: 'one', new_text: '$&', replace_all: true }, '/w', read))?.newText, '$& two $&\n');
    assert.equal(await proposedDiff('edit_file', { path: 'a.ts', old_text: 'three', new_text: '3' }, '/w', read), undefined);
    assert.equal(await proposedDiff('write_file', { path: '../elsewhere/.env', content: 'x' }, '/w', read), undefined);
    assert.equal(await proposedDiff('run_command', { command: 'ls' }, '/w', read), undefined);
  });
});
