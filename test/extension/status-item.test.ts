import assert from 'node:assert/strict';
import { StatusItem } from '../../src/extension/status-item';

/** A status bar item that records what would be sent to the window. */
function fakeItem() {
  const sent: string[] = [];
  let text = '';
  let tooltip: unknown = undefined;
  return {
    sent,
    item: {
      get text() {
        return text;
      },
      set text(v: string) {
        text = v;
        sent.push(`text ${v}`);
      },
      get tooltip() {
        return tooltip as string | undefined;
      },
      set tooltip(v: string | undefined) {
        tooltip = v;
        sent.push(`tooltip ${v}`);
      },
      show: () => sent.push('show'),
      hide: () => sent.push('hide'),
      dispose: () => sent.push('dispose'),
    },
  };
}

describe('status bar items (StatusItem)', () => {
  it('sends a change once and nothing for the same text again', () => {
    const f = fakeItem();
    const s = new StatusItem(f.item as never);
    s.show('$(shield) auto', 'Permission mode: auto.');
    s.show('$(shield) auto', 'Permission mode: auto.');
    assert.deepEqual(f.sent, ['text $(shield) auto', 'tooltip Permission mode: auto.', 'show']);
    s.show('$(shield) yolo', 'Permission mode: auto.');
    assert.deepEqual(f.sent.slice(3), ['text $(shield) yolo', 'tooltip Permission mode: auto.'], 'shown already: no second show');
  });

  it('hides only a shown item, and shows it again after a hide', () => {
    const f = fakeItem();
    const s = new StatusItem(f.item as never);
    s.hide();
    assert.deepEqual(f.sent, [], 'a new item is hidden already');
    s.show('a', 't');
    s.hide();
    s.hide();
    s.show('a', 't');
    assert.deepEqual(f.sent, ['text a', 'tooltip t', 'show', 'hide', 'text a', 'tooltip t', 'show']);
    s.dispose();
    assert.equal(f.sent.at(-1), 'dispose');
  });
});
