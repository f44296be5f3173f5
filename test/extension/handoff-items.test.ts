import assert from 'node:assert/strict';
import { HandoffFailureReason } from '../../src/protocol/handoff';
import { expiryTime, handoffOpenedMessage, handoffRefusal } from '../../src/extension/handoff/handoff-items';

describe('extension: browser handoff items', () => {
  it('says the link works once and when it expires', () => {
    assert.equal(handoffOpenedMessage('10:35'), 'The chat is open in your browser. The link works once and expires at 10:35; keep this window open while you use it.');
    const now = new Date('2026-01-01T10:00:00Z');
    const later = expiryTime('2026-01-01T10:05:00Z', now);
    assert.equal(later, new Date('2026-01-01T10:05:00Z').toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
    assert.equal(expiryTime('not a date', now), 'not a date');
  });

  it('explains every refusal reason as a sentence without internal codes or protocol names', () => {
    for (const reason of HandoffFailureReason.options) {
      const r = handoffRefusal(reason, 'x');
      assert.match(r.message, /^[A-Z].*[.]$/, reason);
      assert.doesNotMatch(r.message, /attachLatestBrowserHandoff|other_workspace|not_found|`/, reason);
    }
    assert.match(handoffRefusal('expired', '').message, /expired/);
    assert.match(handoffRefusal('used', '').message, /works once/);
    assert.equal(handoffRefusal('corrupt', '').button?.command, 'agentcli.showOutput');
  });

  it('tells the causes of "busy" apart', () => {
    const holder = handoffRefusal('busy', 'a run is active in the runtime holding session s1: wait for it to end or abort it, then try again');
    assert.deepEqual(holder, { message: 'The terminal session is still running a turn; try again when it finishes.' });
    assert.equal(handoffRefusal('busy', 'a run is active in this runtime: abort it before taking over another session').button?.command, 'agentcli.stop');
    assert.equal(handoffRefusal('busy', 'change batch b1 of this runtime is waiting for a decision: decide it before taking over another session').button?.command, 'agentcli.reviewChanges');
    assert.match(handoffRefusal('busy', "session s1 is this runtime's own: it needs no handoff here").message, /already the chat of this editor/);
    assert.match(handoffRefusal('busy', 'the runtime holding session s1 (process 4) did not answer the release request: timeout').message, /did not answer/);
  });
});
