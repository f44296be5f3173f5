/**
 * Nothing a client sends can break later prompts: params nested deeper than MAX_PARAMS_DEPTH are refused with -32602
 * naming the path (before validation, measured without recursion), and `setEditorMcpTools` refuses an input schema the
 * model could not be sent, keeping the tools registered before.
 */
import assert from 'node:assert/strict';
import { RpcErrorCode } from '../../../src/protocol/errors';
import { MAX_PARAMS_DEPTH } from '../../../src/protocol/transport';
import { makeWorkspace, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';

const DIAGNOSTICS = { name: 'diagnostics', description: 'Problems in a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };

/** `{"type":"object","properties":{"a": … }}` nested `levels` deep, built as text (stringifying it would overflow the stack). */
function deepSchemaJson(levels: number): string {
  return '{"type":"object","properties":{"a":'.repeat(levels) + '{"type":"string"}' + '}}'.repeat(levels);
}

interface RawAnswer {
  result?: unknown;
  error?: { code: number; message: string };
}

/** Sends one request line as is and waits for its answer (read beside the helper's connection, which ignores it). */
function rawAnswer(rt: RuntimeUnderTest, id: string, method: string, paramsJson: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`no answer to ${id}; stderr: ${rt.stderr()}`)), 15000);
    const onData = (d: Buffer) => {
      buffer += d.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const msg = JSON.parse(line) as RawAnswer & { id?: unknown };
        if (msg.id === id) {
          clearTimeout(timer);
          rt.proc.stdout!.off('data', onData);
          resolve(msg);
        }
      }
    };
    rt.proc.stdout!.on('data', onData);
    rt.proc.stdin!.write(`{"jsonrpc":"2.0","id":"${id}","method":"${method}","params":${paramsJson}}\n`);
  });
}

async function rawRequest(rt: RuntimeUnderTest, id: string, method: string, paramsJson: string): Promise<{ code: number; message: string }> {
  const answer = await rawAnswer(rt, id, method, paramsJson);
  if (!answer.error) assert.fail(`${id} was accepted: ${JSON.stringify(answer.result).slice(0, 200)}`);
  return answer.error;
}

async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: number; message: string };
  }
  assert.fail('the request was accepted');
}

describe('runtime rpc: bounded input', () => {
  const t = useStubbedRuntime();

  it('a 100,000-level inputSchema is refused with -32602 naming the path, and the next prompt works', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'still fine' });
    const rt = await t.start(cwd);
    await rt.request('setEditorMcpTools', { tools: [DIAGNOSTICS] });
    const tool = `{"name":"deep","description":"d","inputSchema":${deepSchemaJson(100_000)}}`;
    const err = await rawRequest(rt, 'deep-1', 'setEditorMcpTools', `{"tools":[${tool}]}`);
    assert.equal(err.code, RpcErrorCode.InvalidParams);
    assert.match(err.message, new RegExp(`nested more than ${MAX_PARAMS_DEPTH} levels deep at params\\.tools\\[0\\]\\.inputSchema\\.properties\\.a\\.properties\\.a`));
    assert.match(err.message, /more levels\) … .*\.properties\.a/, 'a long path is shortened, keeping both ends');
    assert.ok(err.message.length < 600, `the message stays short (${err.message.length} chars)`);

    const { runId } = await rt.request('prompt', { message: 'hello' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'completed');
    assert.equal(end.text, 'still fine');
    const tools = (t.stub.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((x) => x.function.name);
    assert.ok(tools.includes('editor_diagnostics'), 'the tools registered before the refusal stay');
    assert.ok(!tools.includes('editor_deep'));
  });

  it('deep params of any method are refused the same way; params at the limit pass on to validation', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const deep = await rawRequest(rt, 'deep-2', 'configure', `{"config":{"x":${nested(200)}}}`);
    assert.equal(deep.code, RpcErrorCode.InvalidParams);
    assert.match(deep.message, /invalid params for configure: params are nested more than 64 levels deep at params\.config\.x\[0\]\[0\]/);
    // params (1) + config (2) + 62 arrays = 64 levels: within the limit, so the request goes on (configure takes it).
    const atLimit = await rawAnswer(rt, 'limit-1', 'configure', `{"config":{"x":${nested(MAX_PARAMS_DEPTH - 2)}}}`);
    assert.equal(atLimit.error, undefined, atLimit.error?.message);
    const over = await rawRequest(rt, 'limit-2', 'configure', `{"config":{"x":${nested(MAX_PARAMS_DEPTH - 1)}}}`);
    assert.match(over.message, /nested more than 64 levels/);
  });

  it('setEditorMcpTools refuses a schema the model cannot take, keeps the previous tools, and prompts still work', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'ok' });
    const rt = await t.start(cwd);
    await rt.request('setEditorMcpTools', { tools: [DIAGNOSTICS] });
    const tooDeep = JSON.parse(deepSchemaJson(20)) as Record<string, unknown>; // 41 levels: within the rpc limit
    const deep = await refusal(rt.request('setEditorMcpTools', { tools: [DIAGNOSTICS, { name: 'deep', description: 'd', inputSchema: tooDeep }] }));
    assert.equal(deep.code, RpcErrorCode.InvalidParams);
    assert.match(deep.message, /editor tool "deep": tools\[1\]\.inputSchema is nested more than 32 levels deep at tools\[1\]\.inputSchema\.properties\.a/);
    const untyped = await refusal(rt.request('setEditorMcpTools', { tools: [{ name: 'loose', description: 'd', inputSchema: { properties: {} } }] }));
    assert.match(untyped.message, /tools\[0\]\.inputSchema must be a JSON Schema with "type": "object" at the top .* it has no "type"/);
    const huge = { type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(70 * 1024) } } };
    const big = await refusal(rt.request('setEditorMcpTools', { tools: [{ name: 'big', description: 'd', inputSchema: huge }] }));
    assert.match(big.message, /tools\[0\]\.inputSchema is \d+ bytes as JSON; at most 65536 are accepted/);

    await rt.request('prompt', { message: 'hello' });
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'completed');
    const tools = (t.stub.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((x) => x.function.name);
    assert.deepEqual(tools.filter((n) => n.startsWith('editor_')), ['editor_diagnostics'], 'only the tools registered before the refusals');
  });
});
