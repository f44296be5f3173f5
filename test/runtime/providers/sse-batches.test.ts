import assert from 'node:assert/strict';
import { APIError } from 'openai';
import { SseBatchReader } from '../../../src/runtime/providers/openai-compatible/sse-batches';
import { ProviderError } from '../../../src/runtime/providers/types';

const bytes = (s: string) => new TextEncoder().encode(s);
const chunk = (content: string) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] });
const frame = (content: string, eol = '\n') => `data: ${JSON.stringify(chunk(content))}${eol}${eol}`;
const contents = (out: unknown[]) => out.map((c) => (c as ReturnType<typeof chunk>).choices[0]!.delta.content);

describe('SseBatchReader', () => {
  it('yields every event a read completes, in order, and keeps a partial event for the next read', () => {
    const r = new SseBatchReader();
    const text = frame('a') + frame('b') + frame('c');
    const cut = text.length - 10;
    assert.deepEqual(contents(r.push(bytes(text.slice(0, cut)))), ['a', 'b']);
    assert.deepEqual(contents(r.push(bytes(text.slice(cut)))), ['c']);
    assert.deepEqual(r.end(), []);
  });

  it('accepts \\r\\n and \\r line ends, also when a \\r\\n is split across reads', () => {
    const r = new SseBatchReader();
    const text = frame('x', '\r\n');
    const split = text.indexOf('\r') + 1; // between \r and \n
    assert.deepEqual(contents(r.push(bytes(text.slice(0, split)))), []);
    assert.deepEqual(contents(r.push(bytes(text.slice(split)))), ['x']);
    assert.deepEqual(contents(new SseBatchReader().push(bytes(frame('y', '\r')))), ['y']);
  });

  it('keeps a multi-byte character split across reads whole', () => {
    const r = new SseBatchReader();
    const b = bytes(frame('héllo ✓'));
    const mid = Buffer.from(b).indexOf(0xe2) + 1; // inside the 3-byte ✓
    assert.deepEqual(r.push(b.slice(0, mid)), []);
    assert.deepEqual(contents(r.push(b.slice(mid))), ['héllo ✓']);
  });

  it('joins multi-line data, skips comments and other fields, and stops at [DONE]', () => {
    const r = new SseBatchReader();
    assert.deepEqual(contents(r.push(bytes(`: keep-alive\n\nevent: message\nid: 7\nretry: 10\n${frame('f')}`))), ['f']);
    const r2 = new SseBatchReader();
    assert.deepEqual(contents(r2.push(bytes(`data: {"id":"c","choices":[{"index":0,\ndata: "delta":{"content":"j"}}]}\n\n`))), ['j']);
    assert.deepEqual(contents(r2.push(bytes(`data: [DONE]\n\n${frame('after')}`))), []);
    assert.equal(r2.done, true);
    assert.deepEqual(r2.push(bytes(frame('later'))), []);
  });

  it('counts an event the server left without its final blank line at the end of the body', () => {
    const r = new SseBatchReader();
    assert.deepEqual(r.push(bytes(`data: ${JSON.stringify(chunk('tail'))}`)), []);
    assert.deepEqual(contents(r.end()), ['tail']);
  });

  it('turns an error payload into the API error the server meant, and a non-JSON payload into a provider error', () => {
    assert.throws(
      () => new SseBatchReader().push(bytes('data: {"error":{"message":"overloaded","type":"server_error"}}\n\n')),
      (e: unknown) => e instanceof APIError && /overloaded/.test(e.message),
    );
    assert.throws(
      () => new SseBatchReader().push(bytes('data: <html>bad gateway</html>\n\n')),
      (e: unknown) => e instanceof ProviderError && /not JSON: <html>bad gateway/.test(e.message) && /base URL/.test(e.remedy ?? ''),
    );
  });
});
