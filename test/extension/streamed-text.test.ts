import assert from 'node:assert/strict';
import { StreamedText } from '../../src/extension/chat/streamed-text';
import type { ToWebviewInput } from '../../src/shared/chat/messages';

const ids = { sessionId: 's', runId: 'r', turnId: 't' };
const delta = (text: string, messageId = 'm') => ({ type: 'event', event: { type: 'message_update', ...ids, messageId, delta: text } }) as ToWebviewInput;
const output = (text: string, toolCallId = 'c') => ({ type: 'event', event: { type: 'tool_update', ...ids, toolCallId, toolName: 'run_command', output: text } }) as ToWebviewInput;
const event = (type: string) => ({ type: 'event', event: { type, ...ids, messageId: 'm', content: 'x' } }) as unknown as ToWebviewInput;

/** A panel whose posts arrive when the test says so; `shown` is what each post carried, in order. */
function fakePanel() {
  const posts: ToWebviewInput[] = [];
  const arrivals: Array<() => void> = [];
  const send = (m: ToWebviewInput) => {
    posts.push(m);
    return new Promise<boolean>((resolve) => arrivals.push(() => resolve(true)));
  };
  const shown = () =>
    posts.map((m) => {
      if (m.type !== 'event') return m.type;
      const e = m.event;
      return e.type === 'message_update' ? `text:${e.delta}` : e.type === 'tool_update' ? `output:${e.output}` : e.type;
    });
  const arrive = async (i: number) => {
    arrivals[i]!();
    await new Promise((r) => setImmediate(r));
  };
  return { send, shown, arrive };
}

describe('streamed text to the panel (StreamedText)', () => {
  it("posts an answer's first piece at once and joins the pieces that come while it is on its way", async () => {
    const panel = fakePanel();
    const q = new StreamedText(panel.send);
    q.post(delta('[[p0'));
    q.post(delta(']] f'));
    q.post(delta('irst'));
    assert.deepEqual(panel.shown(), ['text:[[p0']);
    await panel.arrive(0);
    assert.deepEqual(panel.shown(), ['text:[[p0', 'text:]] first']);
    await panel.arrive(1);
    q.post(delta(' words'));
    assert.deepEqual(panel.shown().at(-1), 'text: words', 'nothing on its way: the next piece goes at once');
  });

  it('posts what waits ahead of any other message, in order', () => {
    const panel = fakePanel();
    const q = new StreamedText(panel.send);
    q.post(delta('a'));
    q.post(delta('b'));
    q.post(delta('c'));
    q.post(event('message_end'));
    q.post({ type: 'focusInput' });
    assert.deepEqual(panel.shown(), ['text:a', 'text:bc', 'message_end', 'focusInput']);
  });

  it('never holds other messages, and never joins pieces of different streams', async () => {
    const panel = fakePanel();
    const q = new StreamedText(panel.send);
    q.post(output('line 1\n'));
    q.post({ type: 'focusInput' });
    q.post(output('line 2\n', 'other-call'));
    q.post(delta('text', 'm2'));
    q.post(output('line 3\n', 'other-call'));
    // a piece of another stream is not joined: the held one goes first, and the new one waits
    assert.deepEqual(panel.shown(), ['output:line 1\n', 'focusInput', 'output:line 2\n', 'text:text']);
    await panel.arrive(0);
    await panel.arrive(2);
    assert.equal(panel.shown().length, 4, 'a piece is still on its way');
    await panel.arrive(3);
    assert.deepEqual(panel.shown().slice(4), ['output:line 3\n']);
  });

  it('posts what waits after the stall time when a post is never acknowledged', async () => {
    const panel = fakePanel();
    const q = new StreamedText(panel.send, 20);
    q.post(delta('a'));
    q.post(delta('b'));
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(panel.shown(), ['text:a', 'text:b']);
  });

  it('posts joined text once it is 64 KB long, and counts a refused or throwing post as arrived', async () => {
    const panel = fakePanel();
    const q = new StreamedText(panel.send);
    q.post(output('x'));
    const big = 'y'.repeat(40 * 1024);
    q.post(output(big));
    q.post(output(big)); // joined: 80 KB held
    q.post(output('z')); // over the limit: the held text goes, this one waits
    assert.equal(panel.shown().length, 2);
    assert.equal(panel.shown()[1], `output:${big}${big}`);

    let calls = 0;
    const failing = new StreamedText(() => {
      calls++;
      if (calls === 1) return Promise.reject(new Error('gone'));
      throw new Error('boom');
    });
    failing.post(delta('a'));
    failing.post(delta('b'));
    await new Promise((r) => setImmediate(r));
    assert.equal(calls, 2, 'the refused post counted as arrived: the held piece went');
    failing.post(delta('c'));
    assert.equal(calls, 3, 'the throwing post did not leave the next piece waiting');
  });

  it('posts nothing once disposed', async () => {
    const panel = fakePanel();
    const q = new StreamedText(panel.send);
    q.post(delta('a'));
    q.post(delta('b'));
    q.dispose();
    await panel.arrive(0);
    q.post(delta('c'));
    assert.deepEqual(panel.shown(), ['text:a']);
  });
});
