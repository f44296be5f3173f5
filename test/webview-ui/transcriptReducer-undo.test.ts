import assert from 'node:assert/strict';
import { AgentEvent } from '../../src/protocol';
import { TranscriptItem } from '../../src/shared/chat/messages';
import { applyEvent, createTranscript } from '../../src/shared/chat/model/transcriptReducer';

function apply(m: ReturnType<typeof createTranscript>, e: AgentEvent) {
  assert.equal(AgentEvent.safeParse(e).success, true, `${e.type} is a valid protocol event`);
  return applyEvent(m, e);
}

describe('transcript reducer: undo results on a batch card', () => {
  const change = (id: string, path: string) => ({ id, path, absolutePath: `/w/${path}`, kind: 'modify' as const, additions: 1, deletions: 1, revision: 1, originalBytes: 1, proposedBytes: 1 });

  it('changes_reverted puts each file’s latest undo result on the card; a second undo of the kept file replaces its result', () => {
    const m = createTranscript();
    apply(m, { type: 'change_batch_ready', sessionId: 's1', runId: 'r1', batch: { id: 'b1', runId: 'r1', status: 'pending', changes: [change('c1', 'a.txt'), change('c2', 'b.txt')] } });
    apply(m, { type: 'change_batch_decided', sessionId: 's1', batchId: 'b1', results: [{ changeId: 'c1', path: 'a.txt', status: 'applied' }, { changeId: 'c2', path: 'b.txt', status: 'applied' }] });
    const first = apply(m, {
      type: 'changes_reverted',
      sessionId: 's1',
      batchId: 'b1',
      results: [
        { changeId: 'c1', path: 'a.txt', status: 'stale', reason: 'a.txt changed since it was applied — kept' },
        { changeId: 'c2', path: 'b.txt', status: 'reverted' },
      ],
    });
    assert.deepEqual(first.ids, ['batch:b1']);
    apply(m, { type: 'changes_reverted', sessionId: 's1', batchId: 'b1', results: [{ changeId: 'c1', path: 'a.txt', status: 'reverted' }] });
    const card = m.items.find((i) => i.id === 'batch:b1');
    assert.ok(card?.kind === 'batch');
    assert.deepEqual(card.undoResults?.map((r) => [r.path, r.status]), [['a.txt', 'reverted'], ['b.txt', 'reverted']]);
    assert.equal(TranscriptItem.safeParse(card).success, true, 'the card stays a valid transcript item (the init snapshot carries it)');
    assert.deepEqual(apply(m, { type: 'changes_reverted', sessionId: 's1', batchId: 'nope', results: [] }).ids, [], 'an unknown batch changes nothing');
  });
});
