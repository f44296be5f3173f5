import assert from 'node:assert/strict';
import { eventTrace, makeWorkspace, runCli, useStubbedRuntime } from '../../helpers/runtime-process';

describe('loop strategy reflexion (real runtime, stub model)', () => {
  const t = useStubbedRuntime();
  const chats = () => t.stub.requests.filter((r) => r.path.endsWith('/chat/completions'));

  it('after a failing command a critique request without tools judges it, and the retry sees the critique', async () => {
    const cwd = makeWorkspace({ 'data.txt': 'x\n' }, t.stub.origin, { loopType: 'reflexion' });
    t.stub.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'cat missing.txt' } }] },
      { text: 'The file name was guessed; list the folder before reading.' },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'cat data.txt' } }] },
      { text: 'data.txt holds x' },
    );
    const rt = await t.start(cwd, { args: ['--yolo'] });
    const { runId } = await rt.request('prompt', { message: 'show the data' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'completed', rt.stderr());
    assert.equal(end.text, 'data.txt holds x');

    const reflection = rt.events.find((e) => e.type === 'reflection');
    assert.ok(reflection?.type === 'reflection');
    assert.equal(reflection.critique, 'The file name was guessed; list the folder before reading.');
    assert.deepEqual([reflection.attempt, reflection.maxRetries, reflection.failedTools], [1, 2, ['run_command']]);

    const critique = chats()[1]!.body;
    assert.equal(critique.tools, undefined, 'the critique request offers no tools');
    assert.match(critique.messages.at(-1).content, /critique/i);
    const retry = chats()[2]!.body.messages as Array<{ role: string; content: string }>;
    assert.ok(retry.some((m) => m.role === 'user' && m.content.includes('The file name was guessed')), 'the critique is in the retry request');
    const trace = eventTrace(rt.events).filter((x) => ['tool_end', 'reflection', 'turn_end', 'turn_start'].includes(x));
    assert.deepEqual(trace, ['turn_start', 'tool_end', 'reflection', 'turn_end', 'turn_start', 'tool_end', 'turn_end', 'turn_start', 'turn_end']);
    // A step without a failure gets no critique: four requests in all.
    assert.equal(chats().length, 4);
  });

  it('retries at most reflexion.maxRetries times, then a failing step stops the run', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { loopType: 'reflexion', reflexion: { maxRetries: 1 } });
    const failing = { toolCalls: [{ name: 'read_file', arguments: { path: 'nope.txt' } }] };
    t.stub.enqueue(failing, { text: 'Check the name.' }, failing);
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'read nope' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'stopped');
    assert.equal(end.stoppedReason, 'reflexion_retries');
    assert.equal(rt.events.filter((e) => e.type === 'reflection').length, 1);
    assert.equal(chats().length, 3);
  });

  it('refuses a bad reflexion.maxRetries naming the key', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { reflexion: { maxRetries: -1 } });
    const r = await runCli(['-p', 'hi'], cwd);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /reflexion\.maxRetries/);
  });
});
