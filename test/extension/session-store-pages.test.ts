import assert from 'node:assert/strict';
import { SessionStore } from '../../src/extension/session/session-store';
import type { TranscriptItem } from '../../src/shared/chat/messages';
import { createTranscript, prependItems } from '../../src/shared/chat/model/transcriptReducer';
import { OlderPages } from '../../webview-ui/src/model/olderPages';

function notices(n: number): TranscriptItem[] {
  return Array.from({ length: n }, (_, i) => ({ kind: 'notice', id: `n${i}`, text: `notice ${i}` }));
}

describe('a long chat reaches the panel in pages', () => {
  it('init carries only the newest items and says how many are older', () => {
    const store = new SessionStore();
    store.loadSaved(notices(1000), null);
    const init = store.initMessage();
    assert.ok(init.type === 'init');
    assert.equal(init.items.length, 60);
    assert.equal(init.items[0]?.id, 'n940');
    assert.equal(init.items.at(-1)?.id, 'n999');
    assert.equal(init.olderCount, 940);
  });

  it('a short chat is sent whole', () => {
    const store = new SessionStore();
    store.loadSaved(notices(5), null);
    const init = store.initMessage();
    assert.ok(init.type === 'init');
    assert.equal(init.items.length, 5);
    assert.equal(init.olderCount, 0);
  });

  it('answers loadOlder with the page just before the given item, down to the first one', () => {
    const store = new SessionStore();
    store.loadSaved(notices(1000), null);
    const page = store.olderItems('n940');
    assert.equal(page.items.length, 200);
    assert.equal(page.items[0]?.id, 'n740');
    assert.equal(page.items.at(-1)?.id, 'n939');
    assert.equal(page.olderCount, 740);
    const last = store.olderItems('n150');
    assert.deepEqual([last.items.length, last.olderCount], [150, 0]);
    assert.deepEqual(store.olderItems('not-there').items, [], 'an id the store does not have gets nothing');
  });

  it('keeps a prompt sent while the last chat was being restored, after the restored items', () => {
    const store = new SessionStore();
    store.addPrompt('p1', 'typed at once after the reload', []);
    store.loadSaved(notices(3), null);
    const init = store.initMessage();
    assert.ok(init.type === 'init');
    assert.deepEqual(init.items.map((i) => i.id), ['n0', 'n1', 'n2', 'user:p1']);
  });

  it('does not keep a prompt that already ran or was refused', () => {
    const store = new SessionStore();
    store.addPrompt('p1', 'refused', []);
    store.promptFailed('p1', 'The runtime is not running.');
    store.addPrompt('p2', 'ran', []);
    store.apply({ type: 'agent_start', sessionId: 's', runId: 'r1', prompt: 'ran' });
    store.loadSaved(notices(1), null);
    const init = store.initMessage();
    assert.ok(init.type === 'init');
    assert.deepEqual(init.items.map((i) => i.id), ['n0']);
  });

  it('prependItems puts a page before the list, skips ids already there and keeps the index right', () => {
    const model = createTranscript(notices(10).slice(5));
    const changes = prependItems(model, notices(6));
    assert.equal(changes.prepended, 5);
    assert.deepEqual(model.items.map((i) => i.id), notices(10).map((i) => i.id));
    model.items.forEach((item, i) => assert.equal(model.index.get(item.id), i));
    assert.deepEqual(prependItems(model, notices(2)), { reset: false, ids: [] });
  });
});

describe('the panel asks for older pages one at a time', () => {
  it('asks for the page before the first item, once, while older items remain', () => {
    const asked: string[] = [];
    const pages = new OlderPages((id) => asked.push(id));
    pages.request('n0');
    assert.deepEqual(asked, [], 'nothing is older before init says so');
    pages.reset(300);
    pages.request('n300');
    pages.request('n300');
    assert.deepEqual(asked, ['n300'], 'one request at a time');
    assert.equal(pages.accept('n300', 100, 'n300'), true);
    pages.request('n100');
    assert.equal(pages.accept('n100', 0, 'n100'), true);
    pages.request('n0');
    assert.deepEqual(asked, ['n300', 'n100'], 'all loaded: no more requests');
  });

  it('drops an answer for a list that was replaced meanwhile, and asks again for the new one', () => {
    const asked: string[] = [];
    const pages = new OlderPages((id) => asked.push(id));
    pages.reset(500);
    pages.request('a');
    pages.reset(500); // a new init replaced the list
    assert.equal(pages.accept('a', 300, 'b'), false, 'not the awaited answer any more');
    pages.request('b');
    assert.equal(pages.accept('b', 300, 'c'), false, 'the list changed under the answer');
    pages.request('c');
    assert.deepEqual(asked, ['a', 'b', 'c']);
  });
});
