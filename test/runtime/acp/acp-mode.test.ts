import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import { makeWorkspace, runCli } from '../../helpers/runtime-process';
import { toolResults, useAcpSuite } from './acp-process';

describe('agentcli --acp: a client drives sessions over the Agent Client Protocol', () => {
  const t = useAcpSuite();
  const start = t.start;

  it('initialize answers with the capabilities that are built', async () => {
    const acp = await start();
    assert.equal(acp.init.protocolVersion, 1);
    assert.equal(acp.init.agentInfo?.name, 'agentcli');
    assert.deepEqual(acp.init.agentCapabilities?.promptCapabilities, { image: false, audio: false, embeddedContext: true });
    assert.equal(acp.init.agentCapabilities?.loadSession, true);
    assert.deepEqual(acp.init.agentCapabilities?.mcpCapabilities, { http: true, sse: false });
    assert.deepEqual(acp.init.agentCapabilities?.sessionCapabilities, { list: {}, close: {}, additionalDirectories: {} });
  });

  it('session/new roots the session in its cwd, and a prompt streams to end_turn', async () => {
    const cwd = makeWorkspace({ 'notes.md': 'the answer is 42\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] }, { text: 'The notes say 42, as the attached spec asks.' });
    const acp = await start();
    const { sessionId, modes } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    assert.equal(modes?.currentModeId, 'interactive');
    assert.deepEqual(modes?.availableModes.map((m) => m.id), ['interactive', 'plan', 'restricted', 'yolo']);
    const res = await acp.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'What do the notes say?' },
        { type: 'resource', resource: { uri: 'file:///spec/answer.md', text: 'Answer with the number only.' } },
      ],
    });
    assert.equal(res.stopReason, 'end_turn');
    assert.equal(acp.agentText(), 'The notes say 42, as the attached spec asks.');
    // A read in the workspace needs no permission; the call is shown with its kind, location and result.
    assert.equal(acp.permissionRequests.length, 0);
    const call = acp.ofKind('tool_call')[0]!;
    assert.equal(call.kind, 'read');
    assert.equal(call.title, 'Read notes.md');
    assert.equal(call.locations?.[0]?.path, path.join(cwd, 'notes.md'));
    const done = acp.ofKind('tool_call_update').find((u) => u.toolCallId === call.toolCallId && u.status === 'completed');
    assert.ok(done, 'the read completes');
    const firstUser = (t.stub.requests[0]!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')!;
    assert.match(firstUser.content, /What do the notes say\?/);
    assert.match(firstUser.content, /Answer with the number only\./, 'the embedded resource reaches the model');
    assert.match(toolResults(t.stub, 1)[0]!, /the answer is 42/);
  });

  it('an edit asks permission; allowed, it is written and reaches the client as a diff', async () => {
    const cwd = makeWorkspace({ 'src/app.ts': 'export const x = 1;\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'edit_file', arguments: { path: 'src/app.ts', old_text: 'x = 1', new_text: 'x = 2' } }] }, { text: 'Changed.' });
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'set x to 2' }] });
    assert.equal(res.stopReason, 'end_turn');
    assert.equal(acp.permissionRequests.length, 1);
    const req = acp.permissionRequests[0]!;
    assert.deepEqual(req.options.map((o) => o.kind), ['allow_once', 'allow_always', 'allow_always', 'reject_once']);
    assert.equal(req.toolCall.title, 'Edit src/app.ts');
    // The question shows the change it is about.
    const preview = req.toolCall.content?.find((c) => c.type === 'diff');
    assert.deepEqual(preview, { type: 'diff', path: path.join(cwd, 'src/app.ts'), oldText: 'export const x = 1;\n', newText: 'export const x = 2;\n' });
    // The client heard of the tool call before the question about it.
    assert.ok(acp.ofKind('tool_call').some((c) => c.toolCallId === req.toolCall.toolCallId && c.kind === 'edit'));
    assert.equal(readFileSync(path.join(cwd, 'src/app.ts'), 'utf8'), 'export const x = 2;\n');
    const end = acp.ofKind('tool_call_update').find((u) => u.toolCallId === req.toolCall.toolCallId && u.status === 'completed');
    const diff = end?.content?.find((c) => c.type === 'diff');
    assert.ok(diff && diff.type === 'diff', JSON.stringify(end));
    assert.equal(realpathSync(path.dirname(diff.path)), realpathSync(path.join(cwd, 'src')));
    assert.equal(diff.oldText, 'export const x = 1;\n');
    assert.equal(diff.newText, 'export const x = 2;\n');
  });

  it('a command is an execute tool call; approved, its output reaches the client', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hello-from-acp' } }] }, { text: 'ran it' });
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'greet' }] });
    assert.equal(res.stopReason, 'end_turn');
    const req = acp.permissionRequests[0]!;
    assert.equal(req.toolCall.kind, 'execute');
    const end = acp.ofKind('tool_call_update').find((u) => u.toolCallId === req.toolCall.toolCallId && u.status === 'completed');
    assert.match(JSON.stringify(end?.content), /hello-from-acp/);
  });

  it('a denied write is not made, the call fails and the model is told', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'hello\n' } }] }, { text: 'Understood.' });
    const acp = await start();
    acp.answer = () => ({ outcome: { outcome: 'selected', optionId: 'deny' } });
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    assert.equal(res.stopReason, 'end_turn');
    assert.equal(existsSync(path.join(cwd, 'new.txt')), false);
    const callId = acp.permissionRequests[0]!.toolCall.toolCallId;
    assert.ok(acp.ofKind('tool_call_update').some((u) => u.toolCallId === callId && u.status === 'failed'));
    assert.match(toolResults(t.stub, 1)[0]!, /the user denied Write new\.txt/);
  });

  it('session/cancel during a permission request ends the prompt cancelled and the call is not run', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'never.txt', content: 'no\n' } }] }, { text: 'unused' });
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    // As ACP asks of a client: on cancel, every pending permission request is answered `cancelled`.
    acp.answer = async () => {
      await acp.agent.notify(methods.agent.session.cancel, { sessionId });
      return { outcome: { outcome: 'cancelled' } };
    };
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    assert.equal(res.stopReason, 'cancelled');
    assert.equal(existsSync(path.join(cwd, 'never.txt')), false);
    const callId = acp.permissionRequests[0]!.toolCall.toolCallId;
    const failed = acp.ofKind('tool_call_update').find((u) => u.toolCallId === callId && u.status === 'failed');
    assert.ok(failed, 'the cancelled call is shown failed');
    assert.equal(t.stub.requests.length, 1, 'no further model request after the cancel');
    // The session takes the next prompt.
    t.stub.enqueue({ text: 'ready again' });
    const next = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    assert.equal(next.stopReason, 'end_turn');
  });

  it('on session/cancel the agent withdraws a permission request the client has not answered', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo never' } }] }, { text: 'unused' });
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    let withdrawn = false;
    // A client that waits for a person: it answers only when the agent withdraws the request ($/cancel_request).
    acp.answer = (_req, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          withdrawn = true;
          resolve({ outcome: { outcome: 'cancelled' } });
        });
      });
    const prompt = acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'run it' }] });
    while (acp.permissionRequests.length === 0) await new Promise((r) => setTimeout(r, 20));
    await acp.agent.notify(methods.agent.session.cancel, { sessionId });
    assert.equal((await prompt).stopReason, 'cancelled');
    while (!withdrawn) await new Promise((r) => setTimeout(r, 20));
  });

  it('session/cancel while the model streams ends the prompt cancelled', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'a long answer that never ends', hang: true });
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const prompt = acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'talk' }] });
    while (acp.ofKind('agent_message_chunk').length === 0) await new Promise((r) => setTimeout(r, 20));
    await assert.rejects(
      acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'and another' }] }),
      /a prompt is still running in this session/,
    );
    await acp.agent.notify(methods.agent.session.cancel, { sessionId });
    assert.equal((await prompt).stopReason, 'cancelled');
  });

  it('with client file access, reads and writes go through the client (its unsaved buffer, its write)', async () => {
    const cwd = realpathSync(makeWorkspace({ 'app.ts': 'const saved = 1;\n' }, t.stub.origin));
    const file = path.join(cwd, 'app.ts');
    const buffers = new Map([[file, 'const unsaved = 1;\n']]);
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'app.ts' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'app.ts', old_text: 'unsaved = 1', new_text: 'unsaved = 2' } }] },
      { text: 'Edited the buffer.' },
    );
    const acp = await start({ files: buffers });
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'bump it' }] });
    assert.equal(res.stopReason, 'end_turn');
    assert.match(toolResults(t.stub, 1)[0]!, /const unsaved = 1;/, 'the model read the editor buffer');
    assert.deepEqual(acp.writes, [{ path: file, content: 'const unsaved = 2;\n' }]);
    assert.equal(readFileSync(file, 'utf8'), 'const saved = 1;\n', 'the agent left the disk to the editor');
    const diff = acp
      .ofKind('tool_call_update')
      .flatMap((u) => u.content ?? [])
      .find((c) => c.type === 'diff');
    assert.deepEqual(diff, { type: 'diff', path: file, oldText: 'const unsaved = 1;\n', newText: 'const unsaved = 2;\n' });
  });

  it('session/set_mode switches modes: yolo writes without asking, plan refuses writes', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'yolo.txt', content: 'y\n' } }] },
      { text: 'written' },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'plan.txt', content: 'p\n' } }] },
      { text: 'planned' },
    );
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    await acp.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'yolo' });
    await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'write' }] });
    assert.equal(acp.permissionRequests.length, 0);
    assert.equal(readFileSync(path.join(cwd, 'yolo.txt'), 'utf8'), 'y\n');
    await acp.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'plan' });
    await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'write again' }] });
    assert.equal(existsSync(path.join(cwd, 'plan.txt')), false);
    assert.match(toolResults(t.stub, 3).at(-1)!, /plan mode is on/);
    assert.deepEqual(acp.ofKind('current_mode_update').map((u) => u.currentModeId), ['yolo', 'plan']);
    await assert.rejects(acp.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'turbo' }), /unknown mode "turbo"/);
  });

  it('session/load replays a saved session and continues it', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = { PATH: process.env.PATH, HOME: makeWorkspace({}), AGENTCLI_VALIDATE_EVENTS: '1' };
    t.stub.enqueue({ text: 'Noted: the code word is heron.' });
    const first = await start({ env });
    const { sessionId } = await first.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    await first.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'The code word is heron.' }] });
    await first.close();

    t.stub.enqueue({ text: 'It was heron.' });
    const second = await start({ env });
    const listed = await second.agent.request(methods.agent.session.list, { cwd });
    assert.deepEqual(
      listed.sessions.map((s) => [s.sessionId, s.title]),
      [[sessionId, 'The code word is heron.']],
    );
    assert.equal((await second.agent.request(methods.agent.session.list, { cwd: makeWorkspace({}) })).sessions.length, 0);
    await assert.rejects(second.agent.request(methods.agent.session.load, { sessionId: 'session_nope', cwd, mcpServers: [] }));
    await second.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    const replay = second.updates.map((n) => n.update).filter((u) => u.sessionUpdate !== 'available_commands_update');
    assert.deepEqual(
      replay.map((u) => u.sessionUpdate),
      ['user_message_chunk', 'agent_message_chunk'],
    );
    assert.ok(second.updates.every((n) => n.sessionId === sessionId));
    const res = await second.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'What was the code word?' }] });
    assert.equal(res.stopReason, 'end_turn');
    const sent = JSON.stringify(t.stub.requests[1]!.body.messages);
    assert.match(sent, /The code word is heron\./, 'the loaded history goes to the model');
    // session/close ends it and lets go of the saved session, so it can be loaded again.
    await second.agent.request(methods.agent.session.close, { sessionId });
    await assert.rejects(second.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'x' }] }), /unknown session/);
    await second.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
  });

  it('a run that fails answers the prompt with a JSON-RPC error carrying the reason', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ status: 401, errorBody: { error: { message: 'invalid api key' } } });
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    await assert.rejects(
      acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] }),
      (e: { code: number; message: string; data?: { code?: string } }) => e.code === -32603 && /401|api key|auth/i.test(e.message) && e.data?.code === 'auth_failed',
    );
  });

  it('offers /compact, which summarises the conversation so far', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'First answer.' }, { text: 'Summary: the user said hello.' });
    const acp = await start();
    const { sessionId } = await acp.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    while (acp.ofKind('available_commands_update').length === 0) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(acp.ofKind('available_commands_update')[0]!.availableCommands.map((c) => c.name), ['compact']);
    const early = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/compact' }] });
    assert.equal(early.stopReason, 'end_turn');
    assert.match(acp.agentText(), /Nothing to compact yet\./);
    await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    const res = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '/compact' }] });
    assert.equal(res.stopReason, 'end_turn');
    assert.match(acp.agentText(), /Compacted the conversation: 2 messages/);
    assert.equal(t.stub.requests.length, 2, 'the summary was asked of the model');
  });

  it('the mode of a new session follows the flags agentcli was started with', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const yolo = await start({ args: ['--yolo'] });
    assert.equal((await yolo.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })).modes?.currentModeId, 'yolo');
    const restricted = await start({ args: ['--restricted'] });
    assert.equal((await restricted.agent.request(methods.agent.session.new, { cwd, mcpServers: [] })).modes?.currentModeId, 'restricted');
  });

  it('a prompt to an unknown session and bad cwd are refused with a message', async () => {
    const acp = await start();
    await assert.rejects(acp.agent.request(methods.agent.session.prompt, { sessionId: 'nope', prompt: [{ type: 'text', text: 'x' }] }), /unknown session "nope"/);
    await assert.rejects(acp.agent.request(methods.agent.session.new, { cwd: 'relative/dir', mcpServers: [] }), /absolute path/);
  });

  it('--acp refuses a prompt and other one-shot flags', async () => {
    const out = await runCli(['--acp', '-p', 'hi'], makeWorkspace({}));
    assert.equal(out.code, 2);
    assert.match(out.stderr, /--acp cannot be combined with a prompt/);
  });
});
