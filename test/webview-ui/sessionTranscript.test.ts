import assert from 'node:assert/strict';
import type { ChangeBatch, HistoryMessage } from '../../src/protocol/records';
import type { ItemOf, TranscriptItem } from '../../src/shared/chat/transcriptItems';
import { parseUserMessage, transcriptFromSession, type SavedSession } from '../../src/shared/chat/model/sessionTranscript';
import { applyEvent, createTranscript } from '../../src/shared/chat/model/transcriptReducer';

const session = (messages: HistoryMessage[], errors: SavedSession['errors'] = [], pendingBatch: ChangeBatch | null = null): SavedSession => ({ messages, errors, pendingBatch });
const of = <K extends TranscriptItem['kind']>(items: TranscriptItem[], kind: K) => items.filter((i): i is ItemOf<K> => i.kind === kind);
const at = '2026-11-25T09:00:00.000Z';

describe('transcript rebuilt from a saved session (getSession)', () => {
  it('shows prompts, answers and tool calls with their results in order; succeeded, failed and never-run calls differ', () => {
    const items = transcriptFromSession(
      session(
        [
          { role: 'system', content: 'you are an agent' },
          { role: 'user', content: 'read both' },
          {
            role: 'assistant',
            content: 'Reading.',
            toolCalls: [
              { id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' },
              { id: 'c2', name: 'read_file', arguments: '{"path":"missing.txt"}' },
              { id: 'c3', name: 'bash', arguments: '{"command":"npm test"}' },
            ],
          },
          { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'alpha' },
          { role: 'tool', toolCallId: 'c2', toolName: 'read_file', content: 'no such file: missing.txt' },
          { role: 'tool', toolCallId: 'c3', toolName: 'bash', content: 'not run: the user aborted the turn' },
          { role: 'assistant', content: 'One file is missing.' },
        ],
        [{ at, code: 'tool_error', error: 'read_file failed: no such file: missing.txt', toolCallId: 'c2', afterMessages: 3 }],
      ),
    );
    assert.deepEqual(items.map((i) => i.kind), ['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    const [a, b, c] = of(items, 'tool');
    assert.deepEqual([a?.status, a?.output, a?.argsSummary, a?.path], ['success', 'alpha', 'a.txt', 'a.txt']);
    assert.deepEqual([b?.status, b?.error], ['failure', 'read_file failed: no such file: missing.txt']);
    assert.equal(c?.status, 'cancelled');
    assert.equal(of(items, 'error').length, 0, 'a failed tool shows on its card only, as it did live');
    assert.ok(items.every((i) => i.kind !== 'assistant' || !i.streaming));
    // every item has its own id (the view and the reducer look items up by id)
    assert.equal(new Set(items.map((i) => i.id)).size, items.length);
  });

  it('a tool_error without a call id (older files) marks the tool result right after its position', () => {
    const items = transcriptFromSession(
      session(
        [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'c1', toolName: 'bash', content: 'exit 1' },
        ],
        [{ at, code: 'tool_error', error: 'bash failed: exit 1', afterMessages: 2 }],
      ),
    );
    assert.deepEqual(of(items, 'tool').map((t) => [t.status, t.error]), [['failure', 'bash failed: exit 1']]);
  });

  it('puts other errors where they happened, with a known code, and binds each prompt to its own run', () => {
    const items = transcriptFromSession(
      session(
        [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'one' },
          { role: 'user', content: 'second' },
          { role: 'user', content: 'third' },
          { role: 'assistant', content: 'three' },
        ],
        [
          { at, runId: 'run_x', code: 'rate_limited', error: 'slow down', afterMessages: 3 },
          { at, code: 'something_new', error: 'odd' },
        ],
      ),
    );
    assert.deepEqual(items.map((i) => (i.kind === 'error' ? `error:${i.code}` : i.kind)), ['user', 'assistant', 'user', 'error:rate_limited', 'user', 'assistant', 'error:internal']);
    const users = of(items, 'user');
    assert.equal(new Set(users.map((u) => u.runId)).size, 3);
    assert.equal(of(items, 'assistant')[1]?.runId, users[2]?.runId);
  });

  it('turns the context blocks before a prompt back into chips', () => {
    const content = '<file path="src/a.ts">\nconst a = 1;\n</file>\n<selection path="src/b.ts:3-9">\nline\n</selection>\n<file path="docs"/>\n\nexplain these';
    const { text, context } = parseUserMessage(content, 'p');
    assert.equal(text, 'explain these');
    assert.deepEqual(context, [
      { id: 'p-ctx0', kind: 'file', path: 'src/a.ts', text: 'const a = 1;' },
      { id: 'p-ctx1', kind: 'selection', path: 'src/b.ts', startLine: 3, endLine: 9, text: 'line' },
      { id: 'p-ctx2', kind: 'file', path: 'docs' },
    ]);
    assert.deepEqual(parseUserMessage('<file> is a tag', 'p'), { text: '<file> is a tag', context: [] });
  });

  it('shows a compaction summary as one notice (not the summary prompt and its reply)', () => {
    const items = transcriptFromSession(
      session([
        { role: 'user', content: 'Summary of the earlier conversation (older messages were compacted to fit the context window):\n\nthey talked' },
        { role: 'assistant', content: 'Understood. I will continue from this summary.' },
        { role: 'user', content: 'go on' },
        { role: 'assistant', content: 'ok' },
      ]),
    );
    assert.deepEqual(items.map((i) => i.kind), ['notice', 'user', 'assistant']);
  });

  it('with `shown` (runtime keeps what compaction summarised away) the whole conversation is rebuilt, errors placed in it', () => {
    const summary: HistoryMessage = { role: 'user', content: 'Summary of the earlier conversation (older messages were compacted to fit the context window):\n\nold talk' };
    const ack: HistoryMessage = { role: 'assistant', content: 'Understood. I will continue from this summary.' };
    const items = transcriptFromSession({
      messages: [summary, ack, { role: 'user', content: 'new question' }, { role: 'assistant', content: 'new answer' }],
      shown: [
        { role: 'user', content: 'old question' },
        { role: 'assistant', content: 'old answer' },
        { role: 'user', content: 'new question' },
        summary,
        ack,
        { role: 'assistant', content: 'new answer' },
      ],
      errors: [{ at, code: 'rate_limited', error: 'slow down', afterMessages: 1, afterShown: 2 }],
      pendingBatch: null,
    });
    assert.deepEqual(
      items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind)),
      ['old question', 'old answer', 'error', 'new question', 'notice', 'new answer'],
    );
  });

  it('an undecided batch is a pending card after the run, linked to its file tools', () => {
    const batch: ChangeBatch = {
      id: 'b1',
      runId: 'run_9',
      status: 'pending',
      changes: [{ id: 'ch1', path: 'a.txt', absolutePath: '/w/a.txt', kind: 'modify', additions: 1, deletions: 1, revision: 1, originalBytes: 4, proposedBytes: 4 }],
    };
    const items = transcriptFromSession(
      session(
        [
          { role: 'user', content: 'older' },
          { role: 'assistant', content: 'sure' },
          { role: 'user', content: 'edit a' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'w1', name: 'write_file', arguments: '{"path":"a.txt","content":"new"}' }] },
          { role: 'tool', toolCallId: 'w1', toolName: 'write_file', content: 'proposed a.txt' },
          { role: 'assistant', content: 'Proposed.' },
        ],
        [],
        batch,
      ),
    );
    assert.deepEqual(items.map((i) => i.kind), ['user', 'assistant', 'user', 'tool', 'assistant', 'batch']);
    const card = of(items, 'batch')[0]!;
    assert.deepEqual([card.status, card.runId, card.files.map((f) => f.path)], ['pending', 'run_9', ['a.txt']]);
    assert.equal(of(items, 'tool')[0]?.change, 'proposed');
    assert.equal(of(items, 'user')[0]?.runId === 'run_9', false, 'only the last run takes the batch run id');
  });

  it('a tool call the killed runtime never answered is not left running', () => {
    const items = transcriptFromSession(session([{ role: 'user', content: 'go' }, { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'bash', arguments: 'not json' }] }]));
    assert.deepEqual(of(items, 'tool').map((t) => [t.status, t.argsSummary]), [['cancelled', 'not json']]);
  });
});

describe('transcript reducer: context_compacted', () => {
  it('adds a notice with the token counts', () => {
    const m = createTranscript();
    applyEvent(m, { type: 'context_compacted', sessionId: 's', messagesBefore: 10, messagesAfter: 2, tokensBefore: 12000, tokensAfter: 800 });
    assert.match((m.items[0] as ItemOf<'notice'>).text, /summarised.*12,000 → 800 tokens/);
  });
});
