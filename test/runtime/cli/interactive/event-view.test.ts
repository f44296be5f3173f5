import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/protocol';
import { createStyle } from '../../../../src/runtime/cli/interactive/ansi';
import { EventView, MAX_OUTPUT_LINES, summarizeToolArgs } from '../../../../src/runtime/cli/interactive/event-view';

const ids = { sessionId: 's', runId: 'r', turnId: 't' };

function viewWithOutput(): { view: EventView; out: () => string } {
  let text = '';
  return { view: new EventView((s) => (text += s), createStyle(false)), out: () => text };
}

describe('interactive event view', () => {
  it('notes an automatic compaction within a run (a /compact prints its own line)', () => {
    const { view, out } = viewWithOutput();
    const counts = { messagesBefore: 9, messagesAfter: 3, tokensBefore: 12000, tokensAfter: 900 };
    view.render({ sessionId: 's', type: 'context_compacted', ...counts });
    assert.equal(out(), '');
    view.render({ sessionId: 's', runId: 'r', type: 'context_compacted', ...counts });
    assert.equal(out(), '(older turns summarised to fit the context window: about 12000 → 900 tokens)\n');
  });

  it('streams deltas as they arrive and ends the message on its own line', () => {
    const { view, out } = viewWithOutput();
    view.render({ ...ids, type: 'message_update', messageId: 'm', delta: 'Hel' });
    assert.equal(out(), 'Hel');
    view.render({ ...ids, type: 'message_update', messageId: 'm', delta: 'lo' });
    view.render({ ...ids, type: 'message_end', messageId: 'm', content: 'Hello' });
    assert.equal(out(), 'Hello\n');
  });

  it('puts a tool call and its result on one compact line', () => {
    const { view, out } = viewWithOutput();
    view.render({ ...ids, type: 'message_update', messageId: 'm', delta: 'Looking.' });
    view.render({ ...ids, type: 'tool_start', toolCallId: 'c1', toolName: 'read_file', args: { path: 'src/a.ts' } });
    view.render({ ...ids, type: 'tool_end', toolCallId: 'c1', toolName: 'read_file', durationMs: 3.4, success: true, output: 'x' });
    view.render({ ...ids, type: 'tool_start', toolCallId: 'c2', toolName: 'grep', args: { pattern: 'TODO' } });
    view.render({ ...ids, type: 'tool_end', toolCallId: 'c2', toolName: 'grep', durationMs: 1500, success: false, error: 'bad pattern\nmore' });
    assert.equal(out(), 'Looking.\n● read_file src/a.ts ✓ 3 ms\n● grep TODO ✗ 1.5 s bad pattern\n');
  });

  it('shows command output dimmed under the call, bounded, and counts the rest', () => {
    const { view, out } = viewWithOutput();
    view.render({ ...ids, type: 'tool_start', toolCallId: 'c1', toolName: 'run_command', args: { command: 'seq 1 40' } });
    const lines = Array.from({ length: 40 }, (_, i) => String(i + 1));
    view.render({ ...ids, type: 'tool_update', toolCallId: 'c1', toolName: 'run_command', output: lines.slice(0, 5).join('\n') + '\n' + '6' });
    view.render({ ...ids, type: 'tool_update', toolCallId: 'c1', toolName: 'run_command', output: '\n' + lines.slice(6).join('\n') });
    view.render({ ...ids, type: 'tool_end', toolCallId: 'c1', toolName: 'run_command', durationMs: 20, success: true });
    const shown = out().split('\n');
    assert.equal(shown[0], '● run_command seq 1 40');
    assert.deepEqual(shown.slice(1, 1 + MAX_OUTPUT_LINES), lines.slice(0, MAX_OUTPUT_LINES).map((l) => `  │ ${l}`));
    assert.equal(shown[1 + MAX_OUTPUT_LINES], `  │ … ${40 - MAX_OUTPUT_LINES} more line(s) not shown`);
    assert.equal(shown[2 + MAX_OUTPUT_LINES], '  ✓ run_command 20 ms');
  });

  it('prints errors with their remedy', () => {
    const { view, out } = viewWithOutput();
    const e: AgentEvent = { sessionId: 's', runId: 'r', type: 'error', code: 'connection_refused', error: 'cannot reach the server', remedy: 'start it' };
    view.render(e);
    assert.equal(out(), '✗ error: cannot reach the server\n  remedy: start it\n');
  });

  it('a tool_error event beside a failed tool adds nothing: the ✗ line already shows the failure', () => {
    const { view, out } = viewWithOutput();
    view.render({ ...ids, type: 'tool_start', toolCallId: 'c1', toolName: 'run_command', args: { command: 'false' } });
    view.render({ ...ids, type: 'tool_end', toolCallId: 'c1', toolName: 'run_command', durationMs: 2, success: false, error: 'exit code 1' });
    view.render({ sessionId: 's', runId: 'r', type: 'error', code: 'tool_error', toolCallId: 'c1', error: 'run_command failed: exit code 1' });
    assert.equal(out(), '● run_command false ✗ 2 ms exit code 1\n');
  });

  it('summarizes arguments by their command, path or pattern, on one bounded line', () => {
    assert.equal(summarizeToolArgs({ command: 'a\nb' }), 'a ⏎ b');
    assert.equal(summarizeToolArgs({ path: 'x'.repeat(100) }, 10), 'xxxxxxxxx…');
    assert.equal(summarizeToolArgs({ other: 1 }), '');
    assert.equal(summarizeToolArgs('nope'), '');
  });
});
