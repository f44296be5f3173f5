import assert from 'node:assert/strict';
import type { HistoryEntry } from '../../src/protocol/records';
import { attachFailureReason, deleteFailureReason, historyRow, relativeAge } from '../../src/extension/session/history-items';

const now = Date.parse('2026-11-25T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();
const entry = (over: Partial<HistoryEntry> = {}): HistoryEntry => ({
  sessionId: 'session_aaaaaaaaaaaa',
  title: 'fix the failing test',
  cwd: '/w',
  createdAt: ago(7_200_000),
  updatedAt: ago(300_000),
  messageCount: 6,
  provider: 'serviceai',
  model: 'weka',
  ...over,
});

describe('chat history rows (title, age, model)', () => {
  it('says how long ago in plain words', () => {
    assert.equal(relativeAge(ago(10_000), now), 'just now');
    assert.equal(relativeAge(ago(5 * 60_000), now), '5 min ago');
    assert.equal(relativeAge(ago(3 * 3_600_000), now), '3 h ago');
    assert.equal(relativeAge(ago(30 * 3_600_000), now), 'yesterday');
    assert.equal(relativeAge(ago(4 * 86_400_000), now), '4 days ago');
    assert.equal(relativeAge(ago(90 * 86_400_000), now), '2026-08-27');
    assert.equal(relativeAge(new Date(now + 5000).toISOString(), now), 'just now', 'a clock a little ahead is not "in the future"');
    assert.equal(relativeAge('not a date', now), '');
  });

  it('one row: the title on one line, then age, model and size; the open chat is marked current', () => {
    assert.deepEqual(historyRow(entry({ title: 'fix\n  the   test' }), 'session_other', now), {
      sessionId: 'session_aaaaaaaaaaaa',
      label: 'fix the test',
      description: '5 min ago · serviceai/weka · 6 messages',
      current: false,
    });
    const current = historyRow(entry({ messageCount: 1 }), 'session_aaaaaaaaaaaa', now);
    assert.equal(current.current, true);
    assert.equal(current.description, 'current · 5 min ago · serviceai/weka · 1 message');
    assert.equal(historyRow(entry({ title: '  ' }), undefined, now).label, 'Untitled chat');
  });

  it('names every attach failure in plain words, with no internal code', () => {
    for (const reason of ['busy', 'corrupt', 'not_found', 'other_workspace'] as const) {
      const text = attachFailureReason(reason);
      assert.doesNotMatch(text, /_|busy|corrupt/, text);
      assert.ok(text.length > 10);
    }
    for (const reason of ['busy', 'current', 'not_found'] as const) assert.doesNotMatch(deleteFailureReason(reason), /_|agentcli /);
  });
});
