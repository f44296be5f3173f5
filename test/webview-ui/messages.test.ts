import assert from 'node:assert/strict';
import {
  MessageContractError,
  parseFromWebview,
  parseToWebview,
  safeParseFromWebview,
  safeParseToWebview,
} from '../../src/shared/chat/messages';

const state = { provider: 'localrunner', model: 'm1', permissionMode: 'interactive', planMode: false, yolo: { active: false }, running: false };

describe('webview message contract', () => {
  describe('to the webview', () => {
    it('accepts an init snapshot and fills defaults', () => {
      const m = parseToWebview({ type: 'init', items: [], state, runtime: { status: 'ready' } });
      assert.equal(m.type, 'init');
      if (m.type !== 'init') return;
      assert.deepEqual(m.pendingPermissions, []);
      assert.equal(m.pendingBatch, null);
      assert.deepEqual(m.context, []);
    });

    it('accepts a runtime event and validates it against the protocol', () => {
      const ev = { type: 'message_update', sessionId: 's', runId: 'r', turnId: 't', messageId: 'm', delta: 'hi' };
      assert.equal(parseToWebview({ type: 'event', event: ev }).type, 'event');
      const bad = safeParseToWebview({ type: 'event', event: { ...ev, delta: 3 } });
      assert.equal(bad.ok, false);
      if (!bad.ok) assert.match(bad.error.message, /"event".*event\.delta/);
    });

    it('requires a reason for a crashed runtime', () => {
      const r = safeParseToWebview({ type: 'runtimeStatus', runtime: { status: 'crashed' } });
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error.message, /runtime\.reason: a crashed status needs a reason/);
      assert.equal(parseToWebview({ type: 'runtimeStatus', runtime: { status: 'crashed', reason: 'exit 1', stderrTail: ['boom'] } }).type, 'runtimeStatus');
    });

    it('rejects an unknown type and lists the known ones', () => {
      assert.throws(() => parseToWebview({ type: 'bogus' }), (e: unknown) => {
        assert.ok(e instanceof MessageContractError);
        assert.equal(e.messageType, 'bogus');
        assert.match(e.message, /type is "bogus"; expected one of init, event/);
        return true;
      });
    });

    it('rejects non-objects without throwing from the safe variant', () => {
      for (const raw of [null, 'x', 3, [], undefined]) {
        const r = safeParseToWebview(raw);
        assert.equal(r.ok, false);
        if (!r.ok) assert.match(r.error.message, /expected an object with a "type" field/);
      }
    });

    it('rejects an error message without text', () => {
      const r = safeParseToWebview({ type: 'error', message: '' });
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error.message, /message: message must be a non-empty string/);
    });
  });

  describe('from the webview', () => {
    it('asks for @ suggestions with a bounded query and gets bounded answers', () => {
      assert.equal(parseFromWebview({ type: 'findFiles', requestId: 3, query: 'src/ap' }).type, 'findFiles');
      assert.equal(safeParseFromWebview({ type: 'findFiles', requestId: 3, query: 'x'.repeat(501) }).ok, false);
      assert.equal(safeParseFromWebview({ type: 'findFiles', requestId: -1, query: '' }).ok, false);
      assert.equal(parseToWebview({ type: 'fileMatches', requestId: 3, paths: ['src/app.ts'] }).type, 'fileMatches');
      const tooMany = safeParseToWebview({ type: 'fileMatches', requestId: 3, paths: Array.from({ length: 51 }, (_, i) => `f${i}`) });
      assert.equal(tooMany.ok, false);
    });

    it('accepts a prompt with context chips and defaults mentions', () => {
      const m = parseFromWebview({ type: 'sendPrompt', promptId: 'p1', text: 'fix it', context: [{ id: 'c1', kind: 'file', path: 'a.ts' }] });
      assert.equal(m.type, 'sendPrompt');
      if (m.type === 'sendPrompt') assert.deepEqual(m.mentions, []);
    });

    it('rejects a blank prompt with a remedy', () => {
      const r = safeParseFromWebview({ type: 'sendPrompt', promptId: 'p1', text: '   ', context: [] });
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error.message, /text: the prompt is empty: type a message first/);
    });

    it('accepts every permission choice and an alternative only with deny', () => {
      for (const choice of ['once', 'session', 'always', 'deny']) {
        assert.equal(parseFromWebview({ type: 'permissionDecision', requestId: 'q', choice }).type, 'permissionDecision');
      }
      assert.equal(parseFromWebview({ type: 'permissionDecision', requestId: 'q', choice: 'deny', alternative: 'use rg' }).type, 'permissionDecision');
      const r = safeParseFromWebview({ type: 'permissionDecision', requestId: 'q', choice: 'once', alternative: 'use rg' });
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error.message, /alternative: an alternative is only sent with choice "deny"/);
      const bad = safeParseFromWebview({ type: 'permissionDecision', requestId: 'q', choice: 'maybe' });
      assert.equal(bad.ok, false);
      if (!bad.ok) assert.match(bad.error.message, /choice/);
    });

    it('requires change ids for accept_selected', () => {
      assert.equal(parseFromWebview({ type: 'decideBatch', batchId: 'b', decision: 'accept_all' }).type, 'decideBatch');
      const r = safeParseFromWebview({ type: 'decideBatch', batchId: 'b', decision: 'accept_selected', changeIds: [] });
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error.message, /changeIds: accept_selected needs at least one change id/);
    });

    it('validates directory decisions, file opening and ids', () => {
      assert.equal(parseFromWebview({ type: 'directoryDecision', requestId: 'd', allowed: true, scope: 'session' }).type, 'directoryDecision');
      assert.equal(safeParseFromWebview({ type: 'directoryDecision', requestId: 'd', allowed: true, scope: 'always' }).ok, false);
      assert.equal(parseFromWebview({ type: 'openFile', path: 'src/a.ts', line: 3 }).type, 'openFile');
      const r = safeParseFromWebview({ type: 'openFile', path: 'src/a.ts', line: 0 });
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error.message, /"openFile".*line/);
      const e = safeParseFromWebview({ type: 'permissionShown', requestId: '' });
      assert.equal(e.ok, false);
      if (!e.ok) assert.match(e.error.message, /requestId: requestId must be a non-empty string/);
    });

    it('takes a plan answer: accept, or revise only with a note', () => {
      assert.deepEqual(parseFromWebview({ type: 'planDecision', planId: 'p1', decision: 'accept' }), { type: 'planDecision', planId: 'p1', decision: 'accept' });
      assert.equal(safeParseFromWebview({ type: 'planDecision', planId: 'p1', decision: 'revise', note: 'add tests' }).ok, true);
      const blank = safeParseFromWebview({ type: 'planDecision', planId: 'p1', decision: 'revise', note: '   ' });
      assert.ok(!blank.ok && /note: revise needs a note saying what to change/.test(blank.error.message));
      assert.equal(safeParseFromWebview({ type: 'planDecision', planId: '', decision: 'accept' }).ok, false);
    });

    it('accepts the argument-less messages', () => {
      for (const type of ['ready', 'abort', 'newChat', 'restartRuntime', 'selectModel']) {
        assert.equal(parseFromWebview({ type }).type, type);
      }
    });
  });
});
