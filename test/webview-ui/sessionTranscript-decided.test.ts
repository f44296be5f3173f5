import assert from 'node:assert/strict';
import type { HistoryMessage } from '../../src/protocol/records';
import type { ItemOf, TranscriptItem } from '../../src/shared/chat/transcriptItems';
import { TranscriptItem as TranscriptItemSchema } from '../../src/shared/chat/transcriptItems';
import { transcriptFromSession, type SavedSession } from '../../src/shared/chat/model/sessionTranscript';

const of = <K extends TranscriptItem['kind']>(items: TranscriptItem[], kind: K) => items.filter((i): i is ItemOf<K> => i.kind === kind);
const at = '2026-11-27T09:00:00.000Z';

/** Two runs: the first proposed a.txt and b.txt (decided after it: a applied, b rejected, a undone since); the second failed. */
const messages: HistoryMessage[] = [
  { role: 'user', content: 'edit a and b' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'w1', name: 'write_file', arguments: '{"path":"a.txt","content":"A"}' },
      { id: 'w2', name: 'write_file', arguments: '{"path":"b.txt","content":"B"}' },
    ],
  },
  { role: 'tool', toolCallId: 'w1', toolName: 'write_file', content: 'proposed a.txt' },
  { role: 'tool', toolCallId: 'w2', toolName: 'write_file', content: 'proposed b.txt' },
  { role: 'assistant', content: 'Proposed both.' },
  { role: 'user', content: 'again' },
];
const decidedBatch: NonNullable<SavedSession['decidedBatches']>[number] = {
  batchId: 'batch_1',
  runId: 'run_1',
  files: [
    { changeId: 'c1', path: 'a.txt', kind: 'modify', additions: 1, deletions: 1 },
    { changeId: 'c2', path: 'b.txt', kind: 'create', additions: 1, deletions: 0 },
  ],
  results: [
    { changeId: 'c1', path: 'a.txt', status: 'applied' },
    { changeId: 'c2', path: 'b.txt', status: 'rejected' },
  ],
  undoResults: [{ changeId: 'c1', path: 'a.txt', status: 'reverted' }],
  afterMessages: 5,
  afterShown: 5,
};
const fix = { action: 'set_base_url' as const, configKey: 'ggufserver.baseUrl' };
const error = { at, runId: 'run_2', code: 'connection_refused', error: 'cannot reach ggufserver', remedy: 'start the server', fix, afterMessages: 6, afterShown: 6 };

describe('transcript rebuilt from a saved session: decided batches and error fixes', () => {
  it('a decided batch is its card where it was decided (after its run), with results and undo results; the run\'s file tools say what happened', () => {
    const items = transcriptFromSession({ messages, shown: messages, errors: [error], pendingBatch: null, decidedBatches: [decidedBatch] });
    assert.deepEqual(items.map((i) => i.kind), ['user', 'tool', 'tool', 'assistant', 'batch', 'user', 'error']);
    const card = of(items, 'batch')[0]!;
    assert.deepEqual(
      [card.id, card.status, card.runId, card.files.map((f) => f.path), card.results?.map((r) => r.status), card.undoResults?.map((r) => r.status)],
      ['batch:batch_1', 'decided', 'run_1', ['a.txt', 'b.txt'], ['applied', 'rejected'], ['reverted']],
    );
    assert.deepEqual(of(items, 'tool').map((t) => [t.runId, t.change]), [['run_1', 'applied'], ['run_1', 'rejected']]);
    assert.equal(of(items, 'user')[0]?.runId, 'run_1', 'the batch\'s run is the prompt before it');
    assert.notEqual(of(items, 'user')[1]?.runId, 'run_1');
    for (const item of items) assert.ok(TranscriptItemSchema.safeParse(item).success, `${item.kind} is a valid transcript item`);
  });

  it('an error keeps the remedy and the fix it was saved with (the card shows its buttons)', () => {
    const items = transcriptFromSession({ messages, shown: messages, errors: [error], pendingBatch: null, decidedBatches: [decidedBatch] });
    const [e] = of(items, 'error');
    assert.deepEqual([e?.code, e?.message, e?.remedy, e?.fix, e?.runId], ['connection_refused', 'cannot reach ggufserver', 'start the server', fix, 'run_2']);
  });

  it('an older saved session (no decidedBatches, errors without fix or remedy) still opens, as before', () => {
    const { remedy: _remedy, fix: _fix, ...oldError } = error;
    const items = transcriptFromSession({ messages, errors: [oldError], pendingBatch: null });
    assert.deepEqual(items.map((i) => i.kind), ['user', 'tool', 'tool', 'assistant', 'user', 'error']);
    assert.deepEqual(of(items, 'tool').map((t) => t.change), [undefined, undefined]);
    const [e] = of(items, 'error');
    assert.equal('fix' in e! || 'remedy' in e!, false);
  });

  it('a hand-edited file naming one batch twice gives one card (ids stay unique)', () => {
    const items = transcriptFromSession({ messages, shown: messages, errors: [], pendingBatch: null, decidedBatches: [decidedBatch, { ...decidedBatch, afterShown: 6 }] });
    assert.equal(of(items, 'batch').length, 1);
    assert.equal(new Set(items.map((i) => i.id)).size, items.length);
  });
});
