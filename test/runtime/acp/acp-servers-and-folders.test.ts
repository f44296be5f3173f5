import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import { makeWorkspace, startRuntime, testEnv } from '../../helpers/runtime-process';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { stdioStubServer } from '../mcp/mcp-stubs';
import { startAcp, toolResults, useAcpSuite, type AcpUnderTest } from './acp-process';

describe('agentcli --acp: MCP servers from session/new and folders outside the workspace', () => {
  const t = useAcpSuite();
  const start = t.start;

  it("the client's stdio MCP server is attached: its tools are offered and called", async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'mcp__x__echo', arguments: { text: 'through acp' } }] }, { text: 'echoed' });
    const acp = await start();
    const server = stdioStubServer() as { command: string; args: string[] };
    const { sessionId } = await acp.agent.request(methods.agent.session.new, {
      cwd,
      mcpServers: [{ name: 'x', command: server.command, args: server.args, env: [{ name: 'STUB_NOTE', value: 'from-client' }] }],
    });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'echo' }] });
    assert.equal(res.stopReason, 'end_turn');
    const offered = (t.stub.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.ok(offered.includes('mcp__x__echo'), offered.join(', '));
    assert.match(toolResults(t.stub, 1)[0]!, /through acp/);
  });

  it('an SSE-only MCP server and a bad server are refused with a message naming them', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const acp = await start();
    await assert.rejects(
      acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [{ type: 'sse', name: 'old', url: 'http://127.0.0.1:9/sse', headers: [] }] }),
      /MCP server "old" uses SSE/,
    );
    await assert.rejects(
      acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [{ type: 'http', name: 'web', url: 'ftp://127.0.0.1/mcp', headers: [] }] }),
      /web\.url.*http:\/\/ or https:\/\//,
    );
  });

  it('a read outside the workspace asks for the folder; allowed once, the read runs', async () => {
    const outside = makeWorkspace({ 'notes.txt': 'notes from elsewhere\n' });
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'notes.txt') } }] }, { text: 'read' });
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'read the notes' }] });
    assert.equal(res.stopReason, 'end_turn');
    assert.equal(acp.permissionRequests.length, 1);
    const req = acp.permissionRequests[0]!;
    assert.match(req.toolCall.title ?? '', /outside the workspace/);
    assert.deepEqual(req.options.map((o) => o.optionId), ['once', 'session', 'deny']);
    assert.match(toolResults(t.stub, 1)[0]!, /notes from elsewhere/);
  });

  it("the client's additional directories are readable without asking; a missing one is refused", async () => {
    const outside = makeWorkspace({ 'notes.txt': 'notes from a second root\n' });
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'notes.txt') } }] }, { text: 'read' });
    const acp = await start();
    await assert.rejects(
      acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [], additionalDirectories: [path.join(outside, 'missing')] }),
      /additionalDirectories: .*missing is not an existing folder/,
    );
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [], additionalDirectories: [outside] });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'read the notes' }] });
    assert.equal(res.stopReason, 'end_turn');
    assert.equal(acp.permissionRequests.length, 0);
    assert.match(toolResults(t.stub, 1)[0]!, /notes from a second root/);
  });
});

describe('agentcli --acp: loading a session that waits for a change decision', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  it('is refused with what to do (and the session keeps its batch)', async () => {
    const cwd = makeWorkspace({}, stub.origin);
    const env = testEnv();
    stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'b\n' } }] }, { text: 'proposed' });
    const rt = await startRuntime(cwd, { env });
    const { sessionId } = await rt.request('getState', {});
    await rt.request('prompt', { message: 'write b' });
    await rt.waitForEvent('agent_end');
    await rt.close();
    const acp = await startAcp({ env });
    try {
      for (let i = 0; i < 2; i++) {
        await assert.rejects(
          acp.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] }),
          new RegExp(`has 1 proposed file change\\(s\\) waiting for a decision: decide them first \\(agentcli --resume ${sessionId}`),
        );
      }
    } finally {
      await acp.close();
    }
  });
});

describe('agentcli --acp: plan mode', () => {
  let stub: OpenAIStub;
  let acp: AcpUnderTest | undefined;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await acp?.close();
    await stub.close();
  });

  it('a proposed plan is offered; kept for revision it waits, accepted it runs in the same prompt turn', async () => {
    const cwd = makeWorkspace({}, stub.origin);
    const submit = { toolCalls: [{ name: 'submit_plan', arguments: { steps: [{ title: 'Write b.txt' }] } }] };
    stub.enqueue(submit, submit, { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'beta\n' } }] }, { text: 'b.txt written' }, { text: 'Done: b.txt' });
    acp = await startAcp();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    await acp.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'plan' });
    let planAnswer = 'revise';
    acp.answer = (req) => ({ outcome: { outcome: 'selected', optionId: req.toolCall.kind === 'switch_mode' ? planAnswer : 'once' } });

    const kept = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'add b.txt' }] });
    assert.equal(kept.stopReason, 'end_turn');
    const review = acp.permissionRequests[0]!;
    assert.equal(review.toolCall.kind, 'switch_mode');
    assert.match(JSON.stringify(review.toolCall.content), /1\. Write b\.txt/);
    assert.deepEqual(review.options.map((o) => o.optionId), ['accept', 'revise']);
    assert.equal(existsSync(path.join(cwd, 'b.txt')), false);
    assert.deepEqual(acp.ofKind('plan').at(-1)?.entries, [{ content: 'Write b.txt', priority: 'medium', status: 'pending' }]);

    planAnswer = 'accept';
    const done = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'again' }] });
    assert.equal(done.stopReason, 'end_turn');
    assert.equal(readFileSync(path.join(cwd, 'b.txt'), 'utf8'), 'beta\n');
    assert.deepEqual(acp.ofKind('current_mode_update').map((u) => u.currentModeId), ['plan', 'interactive']);
    assert.deepEqual(acp.ofKind('plan').at(-1)?.entries.map((e) => e.status), ['completed']);
    assert.match(acp.agentText(), /Done: b\.txt/);
  });

  it('the plan-and-execute loop streams its plan as plan entries', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, stub.origin, { loopType: 'plan-and-execute' });
    const plan = { toolCalls: [{ name: 'submit_plan', arguments: { steps: [{ title: 'Read a.txt' }, { title: 'Report' }] } }] };
    stub.enqueue(plan, { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'a.txt holds alpha' }, { text: 'reported' }, { text: 'Summary: alpha' });
    acp = await startAcp();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'what is in a.txt?' }] });
    assert.equal(res.stopReason, 'end_turn');
    const plans = acp.ofKind('plan').map((p) => p.entries.map((e) => e.status).join(','));
    assert.equal(plans[0], 'pending,pending');
    assert.ok(plans.includes('in_progress,pending'), plans.join(' | '));
    assert.equal(plans.at(-1), 'completed,completed');
    assert.match(acp.agentText(), /Summary: alpha/);
  });
});
