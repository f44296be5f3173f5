import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { AgentEvent, isCompatibleProtocol, methods, permissionAllowed, RpcErrorCode } from '../../src/protocol';
import { checkEnvelope, createNdjsonConnection, LineSplitter } from '../../src/protocol/transport';

describe('protocol: line splitting', () => {
  it('splits lines across chunk boundaries and skips blank lines', () => {
    const lines: string[] = [];
    const s = new LineSplitter(100, (l) => lines.push(l), () => assert.fail('no oversize'));
    s.push(Buffer.from('{"a":1}\n{"b"'));
    s.push(Buffer.from(':2}\r\n\n  \n{"c":3}'));
    s.push(Buffer.from('\n'));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('discards an oversized line whole and recovers at the next newline', () => {
    const lines: string[] = [];
    const sizes: number[] = [];
    const s = new LineSplitter(10, (l) => lines.push(l), (n) => sizes.push(n));
    s.push(Buffer.from('x'.repeat(8)));
    s.push(Buffer.from('y'.repeat(8) + '\nok\n'));
    assert.deepEqual(sizes, [16]);
    assert.deepEqual(lines, ['ok']);
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const lines: string[] = [];
    const s = new LineSplitter(100, (l) => lines.push(l), () => {});
    const bytes = Buffer.from('"héllo ✓"\n');
    s.push(bytes.subarray(0, 3));
    s.push(bytes.subarray(3));
    assert.deepEqual(lines, ['"héllo ✓"']);
  });
});

describe('protocol: envelope checks', () => {
  it('accepts requests, notifications and responses', () => {
    assert.equal(checkEnvelope({ jsonrpc: '2.0', id: 1, method: 'x', params: {} }), undefined);
    assert.equal(checkEnvelope({ jsonrpc: '2.0', method: 'event', params: {} }), undefined);
    assert.equal(checkEnvelope({ jsonrpc: '2.0', id: 'a', result: null }), undefined);
  });
  it('names what is wrong', () => {
    assert.match(checkEnvelope({ id: 1, method: 'x' })!.message, /"jsonrpc" must be "2.0"/);
    assert.equal(checkEnvelope({ id: 1, method: 'x' })!.id, 1);
    assert.match(checkEnvelope([])!.message, /batch/);
    assert.match(checkEnvelope({ jsonrpc: '2.0', id: {}, method: 'x' })!.message, /"id"/);
    assert.match(checkEnvelope({ jsonrpc: '2.0', id: 1, method: 'x', params: 3 })!.message, /"params"/);
    assert.match(checkEnvelope({ jsonrpc: '2.0', id: 1 })!.message, /needs a "method"/);
    assert.equal(checkEnvelope('str')!.code, RpcErrorCode.InvalidRequest);
  });
});

describe('protocol: connection over NDJSON', () => {
  it('round-trips a request and answers violations when asked', async () => {
    const a2b = new PassThrough();
    const b2a = new PassThrough();
    const server = createNdjsonConnection(a2b, b2a, { answerViolations: true });
    server.onRequest('echo', (p: unknown) => p);
    server.listen();
    const client = createNdjsonConnection(b2a, a2b);
    client.listen();
    assert.deepEqual(await client.sendRequest('echo', { x: 1 }), { x: 1 });
    const lines: string[] = [];
    b2a.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
    a2b.write('garbage\n');
    await new Promise((r) => setTimeout(r, 20));
    const err = lines.map((l) => JSON.parse(l)).find((m) => m.error);
    assert.equal(err.error.code, RpcErrorCode.ParseError);
    assert.equal(err.id, null);
    server.dispose();
    client.dispose();
  });
});

describe('protocol: schemas', () => {
  it('versions are compatible by major number', () => {
    assert.equal(isCompatibleProtocol('2.0'), true);
    assert.equal(isCompatibleProtocol('2.7'), true);
    assert.equal(isCompatibleProtocol('1.0'), false, 'batch events changed shape in 2.0');
    assert.equal(isCompatibleProtocol('one'), false);
  });
  it('events are discriminated on type and keep the spec field names', () => {
    const e = AgentEvent.parse({ type: 'tool_end', sessionId: 's', runId: 'r', turnId: 't', toolCallId: 'c', toolName: 'x', durationMs: 3, success: true });
    assert.equal(e.type, 'tool_end');
    assert.throws(() => AgentEvent.parse({ type: 'permission_request', sessionId: 's' }));
    assert.throws(() => AgentEvent.parse({ type: 'nope', sessionId: 's' }));
  });
  it('param refinements reject what the spec calls invalid', () => {
    assert.equal(methods.decideChanges.params.safeParse({ batchId: 'b', decision: 'accept_selected', changeIds: [] }).success, false);
    assert.equal(methods.decideChanges.params.safeParse({ batchId: 'b', decision: 'accept_all' }).success, true);
    assert.equal(methods.setYolo.params.safeParse({ enabled: true, timeoutMinutes: 0 }).success, false);
    assert.equal(methods.setYolo.params.safeParse({ enabled: true, timeoutMinutes: 5 }).success, true);
    assert.equal(methods.permissionResponse.params.safeParse({ requestId: 'p' }).success, false);
    // allowed (TypeScript) and decision (other SDKs' spelling) mean one thing: they may not disagree
    assert.equal(methods.permissionResponse.params.safeParse({ requestId: 'p', allowed: true, decision: 'deny' }).success, false);
    assert.equal(methods.permissionResponse.params.safeParse({ requestId: 'p', allowed: true, alternative: 'x' }).success, false);
    assert.equal(permissionAllowed({ decision: 'allow' }), true);
    assert.equal(permissionAllowed({ allowed: true }), true);
    assert.equal(permissionAllowed({ alternative: 'do y' }), false);
    assert.equal(methods.respondToMcpInvocation.params.safeParse({ requestId: 'm', success: true, error: 'x' }).success, false);
    assert.equal(methods.respondToMcpInvocation.params.safeParse({ requestId: 'm', success: false, error: 'x' }).success, true);
  });
});
