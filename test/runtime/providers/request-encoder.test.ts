import { strict as assert } from 'node:assert';
import type { HistoryMessage } from '../../../src/protocol';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { RequestEncoder as BaseEncoder } from '../../../src/runtime/providers/http/request-encoder';
import { nativeMessageFormat } from '../../../src/runtime/providers/localrunner/wire';
import { createOpenAICompatibleProvider } from '../../../src/runtime/providers/openai-compatible';
import { toWireMessage, toWireMessages } from '../../../src/runtime/providers/openai-compatible/wire';
import { startLocalRunnerStub } from '../../stubs/localrunner-stub';
import { startOpenAIStub } from '../../stubs/openai-stub';
import { chat, collect, config } from './helpers';

/** The chat-completions format's encoder. */
class RequestEncoder extends BaseEncoder {
  constructor() {
    super({ toWire: toWireMessage });
  }
}

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

  it('local runner: a tool result names the tool of its call, and is encoded again when that call is no longer in the history', () => {
    const encoder = new BaseEncoder(nativeMessageFormat);
    const messages = (bytes: Buffer) => (parse(bytes) as { messages: Array<Record<string, unknown>> }).messages;
    const full = messages(encoder.encode({ model: 'm' }, history));
    assert.deepEqual(full[2], { role: 'assistant', content: '', tool_calls: [{ id: 'c1', function: { name: 'read_file', arguments: { path: 'a.ts' } } }] });
    assert.deepEqual(full[3], { role: 'tool', content: 'export const a = 1;\n', tool_call_id: 'c1', tool_name: 'read_file' });
    // Compaction can leave a result whose call is gone: the bytes made with the name are not reused for it.
    const compacted = messages(encoder.encode({ model: 'm' }, [history[0]!, history[3]!]));
    assert.deepEqual(compacted[1], { role: 'tool', content: 'export const a = 1;\n', tool_call_id: 'c1' });
  });

  it('local runner: the provider sends the growing history natively, turn after turn, as JSON', async () => {
    const stub = await startLocalRunnerStub();
    try {
      const provider = createProvider(config({ provider: 'localrunner', localrunner: { baseUrl: stub.origin } }), {}, {});
      const turn: HistoryMessage[] = [{ role: 'user', content: 'read a 😀' }];
      stub.enqueue({ text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] });
      const call = (await collect(provider.streamChat(chat(turn)))).find((c) => c.type === 'tool_call');
      assert.ok(call && call.type === 'tool_call');
      turn.push({ role: 'assistant', content: 'Reading.', toolCalls: [{ id: call.id, name: call.name, arguments: call.arguments }] });
      turn.push({ role: 'tool', content: 'export const a = 1;', toolCallId: call.id });
      stub.enqueue({ text: 'It exports a.' });
      await collect(provider.streamChat(chat(turn)));
      assert.equal(stub.requests.length, 2);
      assert.equal(stub.requests[1]!.headers['content-type'], 'application/json');
      const [first, second] = stub.requests.map((r) => r.body as { model: string; stream: boolean; options: unknown; messages: unknown[] });
      assert.deepEqual(first!.messages, [{ role: 'user', content: 'read a 😀' }]);
      assert.equal(second!.stream, true);
      assert.deepEqual(second!.options, first!.options);
      assert.deepEqual(second!.messages, [
        { role: 'user', content: 'read a 😀' },
        { role: 'assistant', content: 'Reading.', tool_calls: [{ id: call.id, function: { name: 'read_file', arguments: { path: 'a.ts' } } }] },
        { role: 'tool', content: 'export const a = 1;', tool_call_id: call.id, tool_name: 'read_file' },
      ]);
    } finally {
      await stub.close();
    }
  });
});
