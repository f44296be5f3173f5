import { strict as assert } from 'node:assert';
import type { HistoryMessage } from '../../../src/protocol';
import { createOpenAICompatibleProvider } from '../../../src/runtime/providers/openai-compatible';
import { RequestEncoder } from '../../../src/runtime/providers/openai-compatible/request-encoder';
import { toWireMessages } from '../../../src/runtime/providers/openai-compatible/wire';
import { startOpenAIStub } from '../../stubs/openai-stub';
import { chat, collect } from './helpers';

const history: HistoryMessage[] = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'quote " backslash \\ newline \n tab \t, é, 日本, an astral 😀 and a lone \ud800 surrogate' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' }] },
  { role: 'tool', content: 'export const a = 1;\n', toolCallId: 'c1', toolName: 'read_file' },
  { role: 'assistant', content: 'done' },
];

const parse = (bytes: Buffer): unknown => JSON.parse(bytes.toString('utf8'));

describe('RequestEncoder: the chat request body as bytes, each message encoded once', () => {
  it('encodes the same JSON value as stringifying the whole body', () => {
    const fields = { model: 'm', stream: true, tools: [{ type: 'function', function: { name: 'x', parameters: {} } }], temperature: 0.2 };
    const bytes = new RequestEncoder().encode(fields, history);
    assert.deepEqual(parse(bytes), JSON.parse(JSON.stringify({ ...fields, messages: toWireMessages(history) })));
  });

  it('is valid JSON with no other fields and with no messages', () => {
    assert.deepEqual(parse(new RequestEncoder().encode({}, history)), { messages: toWireMessages(history) });
    assert.deepEqual(parse(new RequestEncoder().encode({ model: 'm' }, [])), { messages: [], model: 'm' });
  });

  it('leaves out a messages key among the fields: the history is the messages', () => {
    const bytes = new RequestEncoder().encode({ model: 'm', messages: [{ role: 'user', content: 'injected' }] }, history.slice(0, 2));
    assert.deepEqual(parse(bytes), { model: 'm', messages: toWireMessages(history.slice(0, 2)) });
  });

  it('keeps the encoding of a message it has sent: a longer history re-encodes only the new messages', () => {
    const encoder = new RequestEncoder();
    const first = history.slice(0, 3);
    encoder.encode({ model: 'm' }, first);
    // History messages are never changed in place; were one changed, the bytes already made for it would be sent.
    const sent = first[1]!;
    const changed = { ...sent };
    Object.assign(sent, { content: 'changed after it was sent' });
    const body = parse(encoder.encode({ model: 'm' }, history)) as { messages: unknown[] };
    assert.deepEqual(body.messages, toWireMessages([history[0]!, changed, ...history.slice(2)]));
    Object.assign(sent, changed);
  });

  it('names a tool message without toolCallId by its place in the history', () => {
    assert.throws(() => new RequestEncoder().encode({}, [history[0]!, { role: 'tool', content: 'x' }]), /history message #1 has role "tool" but no toolCallId/);
  });

  it('is what the provider sends: JSON with its content type, the history growing turn by turn', async () => {
    const stub = await startOpenAIStub({ replies: [{ text: 'one' }, { text: 'two' }] });
    try {
      const provider = createOpenAICompatibleProvider({ id: 'ggufserver', model: 'test-model', baseURL: stub.url, extraBody: { messages: 'not these', seed: 7 } });
      const messages: HistoryMessage[] = [{ role: 'user', content: 'hi 😀' }];
      await collect(provider.streamChat(chat(messages)));
      messages.push({ role: 'assistant', content: 'one' }, { role: 'user', content: 'again' });
      await collect(provider.streamChat(chat(messages)));
      assert.equal(stub.requests.length, 2);
      for (const [i, req] of stub.requests.entries()) {
        assert.equal(req.headers['content-type'], 'application/json');
        assert.equal(req.body.stream, true);
        assert.equal(req.body.seed, 7);
        assert.deepEqual(req.body.messages, toWireMessages(i === 0 ? messages.slice(0, 1) : messages));
      }
    } finally {
      await stub.close();
    }
  });
});
