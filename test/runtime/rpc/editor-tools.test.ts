/**
 * Editor-hosted MCP tools over the rpc transport: every way an invocation can end besides a plain success. The model
 * must see a failure or a missing answer as a tool error; a response to an id that is not pending (already answered,
 * or never emitted) is rejected with the protocol's UnknownId code.
 */
import assert from 'node:assert/strict';
import { RpcErrorCode } from '../../../src/protocol/errors';
import { editorToolTimeoutMs } from '../../../src/runtime/agent/editor-tools';
import { makeWorkspace, testEnv, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';

const DIAGNOSTICS = { name: 'diagnostics', description: 'Problems in a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };

/** The `tool` message the model got in request `index` (the answer to its editor tool call). */
function toolMessage(requests: { body: { messages: { role: string; content: string }[] } }[], index: number): string {
  const m = requests[index]?.body.messages.find((x) => x.role === 'tool');
  assert.ok(m, `request ${index} carries no tool result`);
  return m.content;
}

async function rejectedCode(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    return (e as { code: number }).code;
  }
  assert.fail('the response was accepted');
}

describe('runtime rpc: editor tool invocations that do not simply succeed', () => {
  const t = useStubbedRuntime();

  async function invoke(env?: NodeJS.ProcessEnv): Promise<{ rt: RuntimeUnderTest; requestId: string }> {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'editor_diagnostics', arguments: { path: 'x.ts' } }] }, { text: 'noted' });
    const rt = await t.start(cwd, env ? { env } : {});
    await rt.request('setEditorMcpTools', { tools: [DIAGNOSTICS] });
    await rt.request('prompt', { message: 'what is wrong' });
    const inv = await rt.waitForEvent('mcp_invocation');
    return { rt, requestId: inv.requestId };
  }

  it('a missing response times out into a tool error the model sees (AGENTCLI_EDITOR_TOOL_TIMEOUT_MS)', async () => {
    const started = Date.now();
    const { rt, requestId } = await invoke(testEnv({ AGENTCLI_EDITOR_TOOL_TIMEOUT_MS: '300' }));
    const end = await rt.waitForEvent('tool_end', undefined, 10000);
    assert.equal(end.success, false);
    await rt.waitForEvent('agent_end');
    assert.ok(Date.now() - started < 10000, 'the shortened timeout was not used');
    assert.match(toolMessage(t.stub.requests, 1), /editor tool diagnostics did not answer within 300 ms/);
    // the late answer finds nothing to answer
    assert.equal(await rejectedCode(rt.request('respondToMcpInvocation', { requestId, success: true, result: 'late' })), RpcErrorCode.UnknownId);
  });

  it('a failure response reaches the model as a tool error with its message', async () => {
    const { rt, requestId } = await invoke();
    await rt.request('respondToMcpInvocation', { requestId, success: false, error: 'no such file: x.ts' });
    const end = await rt.waitForEvent('tool_end');
    assert.equal(end.success, false);
    await rt.waitForEvent('agent_end');
    assert.equal(toolMessage(t.stub.requests, 1), 'editor tool diagnostics failed: no such file: x.ts');
  });

  it('a second response to an answered id is rejected, and the first answer stands', async () => {
    const { rt, requestId } = await invoke();
    await rt.request('respondToMcpInvocation', { requestId, success: true, result: 'x.ts:1: first answer' });
    assert.equal(
      await rejectedCode(rt.request('respondToMcpInvocation', { requestId, success: true, result: 'x.ts:1: second answer' })),
      RpcErrorCode.UnknownId,
    );
    await rt.waitForEvent('agent_end');
    assert.equal(toolMessage(t.stub.requests, 1), 'x.ts:1: first answer');
  });

  it('an unknown id is rejected with UnknownId and does not settle the pending invocation', async () => {
    const { rt, requestId } = await invoke();
    assert.equal(await rejectedCode(rt.request('respondToMcpInvocation', { requestId: 'mcp_unknown', success: true, result: 'x' })), RpcErrorCode.UnknownId);
    // an empty id is not an id at all: a malformed request
    assert.equal(await rejectedCode(rt.request('respondToMcpInvocation', { requestId: '', success: false, error: 'x' })), RpcErrorCode.InvalidParams);
    assert.ok(!rt.events.some((e) => e.type === 'tool_end'), 'the invocation ended on a response with another id');
    await rt.request('respondToMcpInvocation', { requestId, success: true, result: 'the real answer' });
    await rt.waitForEvent('agent_end');
    assert.equal(toolMessage(t.stub.requests, 1), 'the real answer');
  });
});

describe('editor tool timeout setting', () => {
  it('uses AGENTCLI_EDITOR_TOOL_TIMEOUT_MS only when it is a positive number', () => {
    assert.equal(editorToolTimeoutMs('250'), 250);
    for (const bad of [undefined, '', ' ', '0', '-5', 'soon', 'Infinity']) assert.equal(editorToolTimeoutMs(bad), 60_000, String(bad));
  });
});
