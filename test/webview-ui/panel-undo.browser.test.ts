/** The Undo button and the undo results of an applied batch's card, in the built panel in a real browser. */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { state, tid, usePanelPage } from './panel-page';

describe('chat panel: undo an applied batch', function () {
  this.timeout(60_000);
  const panel = usePanelPage();
  let page: Page;
  beforeEach(() => {
    page = panel.page;
  });

  const change = (id: string, path: string, kind: string) => ({ id, path, absolutePath: `/w/${path}`, kind, additions: 1, deletions: 1, revision: 1, originalBytes: 1, proposedBytes: 1 });

  it('offers Undo only while the extension says the batch can be undone, posts undoBatch, then shows each file’s result and why one was kept', async () => {
    await panel.send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    await panel.send({ type: 'event', event: { type: 'change_batch_ready', sessionId: 's1', runId: 'r1', batch: { id: 'b1', runId: 'r1', status: 'pending', changes: [change('c1', 'src/a.ts', 'modify'), change('c2', 'notes.md', 'create')] } } });
    await panel.send({ type: 'batchResult', batchId: 'b1', results: [{ changeId: 'c1', path: 'src/a.ts', status: 'applied' }, { changeId: 'c2', path: 'notes.md', status: 'applied' }] });
    await page.waitForSelector(tid('batch-file-result'));
    assert.equal(await page.locator(tid('batch-undo')).count(), 0, 'no Undo before the extension says it can be undone');

    await panel.send({ type: 'undoable', batchIds: ['b1'] });
    await page.waitForSelector(tid('batch-undo'));
    await panel.shot('undo-offered');
    await page.click(tid('batch-undo'));
    assert.ok((await panel.posted()).some((m) => m.type === 'undoBatch' && m.batchId === 'b1'));
    await page.waitForSelector(`${tid('batch-card')} .request-answered`);
    assert.equal(await page.locator(tid('batch-undo')).count(), 0, 'one click: the button waits for the outcome');

    await panel.send({
      type: 'event',
      event: {
        type: 'changes_reverted',
        sessionId: 's1',
        batchId: 'b1',
        results: [
          { changeId: 'c1', path: 'src/a.ts', status: 'stale', reason: 'src/a.ts changed since it was applied — kept' },
          { changeId: 'c2', path: 'notes.md', status: 'reverted' },
        ],
      },
    });
    await panel.send({ type: 'undoable', batchIds: ['b1'] }); // the stale file can still be undone later
    await page.waitForSelector(tid('batch-file-undo'));
    assert.deepEqual(await page.locator(tid('batch-file-undo')).allTextContents(), ['kept', 'reverted']);
    assert.deepEqual(await page.locator(tid('batch-undo-note')).allTextContents(), ['src/a.ts changed since it was applied — kept']);
    assert.equal(await page.locator(tid('batch-undo')).count(), 1, 'the answered label is gone, Undo is back');
    await panel.shot('undo-results');

    await panel.send({ type: 'undoable', batchIds: [] });
    await page.waitForSelector(tid('batch-undo'), { state: 'detached' });
    assert.deepEqual(await page.locator(tid('batch-file-undo')).allTextContents(), ['kept', 'reverted'], 'the results stay');
  });

  it('says why a card that wrote files has no Undo: the runtime’s reason, or no longer kept; nothing without a runtime', async () => {
    await panel.send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    for (const [batchId, status] of [['b1', 'applied'], ['b2', 'applied'], ['b3', 'rejected']] as const) {
      const runId = `r-${batchId}`;
      await panel.send({ type: 'event', event: { type: 'change_batch_ready', sessionId: 's1', runId, batch: { id: batchId, runId, status: 'pending', changes: [change(`c-${batchId}`, `${batchId}.txt`, 'modify')] } } });
      await panel.send({ type: 'batchResult', batchId, results: [{ changeId: `c-${batchId}`, path: `${batchId}.txt`, status }] });
    }
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="batch-file-result"]').length === 3);
    await panel.send({ type: 'undoable', batchIds: [], listed: false });
    await page.waitForTimeout(100);
    assert.equal(await page.locator(tid('batch-undo-unavailable')).count(), 0, 'the runtime was not asked: nothing is claimed');

    const secret = 'No Undo: b1.txt holds a secret (a configured key or token), which is never saved, so it cannot be undone.';
    await panel.send({ type: 'undoable', batchIds: [], unavailable: { b1: secret }, listed: true });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="batch-undo-unavailable"]').length === 2);
    const notes = async () => page.locator(tid('batch-card')).evaluateAll((cards) => cards.map((c) => c.querySelector('[data-testid="batch-undo-unavailable"]')?.textContent ?? null));
    assert.deepEqual(await notes(), [secret, 'No longer kept for undo (a chat keeps at most its last 10 applied batches, 32 MiB in all).', null], 'a rejected batch wrote nothing: no note');
    await panel.shot('undo-unavailable');

    await panel.send({ type: 'undoable', batchIds: ['b2'], unavailable: { b1: secret }, listed: true });
    await page.waitForSelector(tid('batch-undo'));
    assert.deepEqual(await notes(), [secret, null, null], 'an undoable batch shows Undo, not a note');
  });
});
