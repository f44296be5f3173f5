import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../../../src/protocol';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { makeWorkspace, runCli, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';

/** Writes `~/.agentcli/hooks/<name>` of the test HOME (executable unless `mode` says otherwise). */
function writeHook(env: NodeJS.ProcessEnv, name: 'pre-prompt' | 'post-prompt', script: string, mode = 0o755): string {
  const dir = path.join(env.HOME!, '.agentcli', 'hooks');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, script, { mode });
  return file;
}

function userMessages(stub: OpenAIStub): string[] {
  return stub.requests.flatMap((r) => (r.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').map((m) => m.content));
}

describe('hooks: filesystem hooks (~/.agentcli/hooks)', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  it('a pre-prompt hook that prints something replaces the prompt', async () => {
    const env = testEnv();
    writeHook(env, 'pre-prompt', '#!/bin/sh\nprompt=$(cat)\necho "checked: $prompt"\n');
    const cwd = makeWorkspace({}, stub.origin);
    stub.enqueue({ text: 'fine' });
    const res = await runCli(['-p', 'list the files'], cwd, env);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(userMessages(stub), ['checked: list the files']);
  });

  it('a pre-prompt hook that prints nothing keeps the prompt', async () => {
    const env = testEnv();
    writeHook(env, 'pre-prompt', '#!/bin/sh\ncat > /dev/null\n');
    const cwd = makeWorkspace({}, stub.origin);
    stub.enqueue({ text: 'fine' });
    const res = await runCli(['-p', 'as typed'], cwd, env);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(userMessages(stub), ['as typed']);
  });

  it('a pre-prompt hook that exits non-zero blocks the prompt: no request, and the user sees its stderr', async () => {
    const env = testEnv();
    writeHook(env, 'pre-prompt', '#!/bin/sh\nif grep -q password; then echo "prompts must not mention passwords" >&2; exit 1; fi\n');
    const cwd = makeWorkspace({}, stub.origin);
    stub.enqueue({ text: 'never sent' });
    const res = await runCli(['-p', 'my password is hunter2'], cwd, env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /prompts must not mention passwords/);
    assert.equal(stub.requests.length, 0);
  });

  it('a pre-prompt hook that is not executable blocks with a clear error', async () => {
    const env = testEnv();
    const file = writeHook(env, 'pre-prompt', '#!/bin/sh\nexit 0\n', 0o644);
    const cwd = makeWorkspace({}, stub.origin);
    const res = await runCli(['-p', 'hello'], cwd, env);
    assert.equal(res.code, 1);
    assert.ok(res.stderr.includes(`${file} is not executable`), res.stderr);
    assert.match(res.stderr, /chmod \+x/);
    assert.equal(stub.requests.length, 0);
  });

  it('post-prompt gets the final answer on stdin', async () => {
    const env = testEnv();
    const cwd = makeWorkspace({}, stub.origin);
    writeHook(env, 'post-prompt', `#!/bin/sh\ncat > '${path.join(cwd, 'answer.txt')}'\n`);
    stub.enqueue({ text: 'the answer is 42' });
    const res = await runCli(['-p', 'what is the answer?'], cwd, env);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(readFileSync(path.join(cwd, 'answer.txt'), 'utf8'), 'the answer is 42');
  });
});

describe('hooks: filesystem hooks over rpc', () => {
  const t = useStubbedRuntime();

  it('a blocked prompt ends the run with hook_blocked and a hook event; the next prompt goes out rewritten', async () => {
    const env = testEnv();
    writeHook(env, 'pre-prompt', '#!/bin/sh\nif grep -q forbidden; then echo "not this one" >&2; exit 3; fi\necho rewritten\n');
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'ok' });
    const rt = await t.start(cwd, { env });
    const { runId } = await rt.request('prompt', { message: 'a forbidden prompt' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'error');
    assert.deepEqual(end.error, { code: 'hook_blocked', message: 'not this one' });
    const hook = rt.events.find((e): e is Extract<AgentEvent, { type: 'hook' }> => e.type === 'hook');
    assert.equal(hook?.name, 'pre-prompt');
    assert.equal(hook?.blocked, true);
    assert.equal(hook?.exitCode, 3);
    assert.equal(t.stub.requests.length, 0);
    const second = await rt.request('prompt', { message: 'a fine prompt' });
    await rt.waitForEvent('agent_end', (e) => e.runId === second.runId);
    assert.deepEqual(userMessages(t.stub), ['rewritten']);
  });

  it('abort while the pre-prompt hook runs stops it and ends the run as aborted, with nothing sent', async () => {
    const env = testEnv();
    writeHook(env, 'pre-prompt', '#!/bin/sh\nsleep 20\n');
    const cwd = makeWorkspace({}, t.stub.origin);
    const rt = await t.start(cwd, { env });
    await rt.request('prompt', { message: 'slow check' });
    await rt.waitForEvent('agent_start');
    assert.equal((await rt.request('abort', {})).aborted, true);
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'aborted');
    const hook = await rt.waitForEvent('hook');
    assert.equal(hook.exitCode, null);
    assert.match(String(hook.error), /aborted/);
    assert.equal(t.stub.requests.length, 0);
  });
});
