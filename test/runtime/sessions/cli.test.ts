import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { makeWorkspace, runCli, testEnv } from '../../helpers/runtime-process';

describe('agentcli --resume, --continue and sessions list|show|rm (real processes)', function () {
  this.timeout(60_000); // several runtime processes per test: room for a busy machine
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(() => stub.close());
  const chat = () => stub.requests.filter((r) => r.path.endsWith('/chat/completions'));

  it('a -p run still applies sessions.maxCount (retention runs 1 s after the session begins, or at close): the oldest go', async () => {
    const cwd = makeWorkspace({}, stub.origin, { sessions: { maxCount: 2 } });
    const env = testEnv();
    for (const word of ['one', 'two', 'three']) {
      stub.enqueue({ text: word });
      const run = await runCli(['-p', `prompt ${word}`], cwd, env);
      assert.equal(run.code, 0, run.stderr);
    }
    const listed = JSON.parse((await runCli(['sessions', 'list', '--json'], cwd, env)).stdout) as { total: number; entries: Array<{ title: string }> };
    assert.deepEqual([listed.total, listed.entries.map((e) => e.title)], [2, ['prompt three', 'prompt two']]);
    const files = fs.readdirSync(path.join(String(env.HOME), '.agentcli', 'sessions')).filter((f) => f.endsWith('.jsonl') && f !== 'index.jsonl');
    assert.equal(files.length, 2, files.join(', '));
  });

  it('a -p run is saved; list and show it; --continue and --resume carry its messages; rm removes it', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, stub.origin);
    const env = testEnv();
    stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'it holds alpha' });
    const first = await runCli(['-p', 'what does a.txt hold?'], cwd, env);
    assert.equal(first.code, 0, first.stderr);

    const list = await runCli(['sessions', 'list'], cwd, env);
    assert.equal(list.code, 0, list.stderr);
    const id = /^(session_[0-9a-z]+)\s/m.exec(list.stdout)?.[1];
    assert.ok(id, list.stdout);
    assert.match(list.stdout, /4 msgs\s+ggufserver\//);
    assert.match(list.stdout, /what does a\.txt hold\?/);
    const json = JSON.parse((await runCli(['sessions', 'list', '--json'], cwd, env)).stdout) as { total: number };
    assert.equal(json.total, 1);

    const show = await runCli(['sessions', 'show', id], cwd, env);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /user: what does a\.txt hold\?/);
    assert.match(show.stdout, /\[tool call read_file\]/);
    assert.match(show.stdout, /\[tool result read_file\] .*alpha/);
    assert.match(show.stdout, /assistant: it holds alpha/);

    stub.enqueue({ text: 'continued' });
    const cont = await runCli(['--continue', '-p', 'and then?'], cwd, env);
    assert.equal(cont.code, 0, cont.stderr);
    assert.match(cont.stderr, new RegExp(`resumed session ${id} \\(4 message\\(s\\)\\)`));
    assert.deepEqual(chat().at(-1)!.body.messages.map((m: { role: string }) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'user']);

    stub.enqueue({ text: 'resumed' });
    const resume = await runCli(['--resume', id, '-p', 'once more'], cwd, env);
    assert.equal(resume.code, 0, resume.stderr);
    assert.deepEqual(
      chat().at(-1)!.body.messages.map((m: { role: string }) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user'],
      'the first run, the --continue run, and the new prompt',
    );

    const rm = await runCli(['sessions', 'rm', id], cwd, env);
    assert.equal(rm.code, 0, rm.stderr);
    assert.equal(fs.existsSync(path.join(env.HOME!, '.agentcli', 'sessions', `${id}.jsonl`)), false);
    const empty = await runCli(['sessions', 'list'], cwd, env);
    assert.match(empty.stdout, /no saved sessions/);
  });

  it('names what is wrong: an unknown id, nothing to continue, both flags, a path for an id', async () => {
    const cwd = makeWorkspace({}, stub.origin);
    const env = testEnv();
    const unknown = await runCli(['--resume', 'session_0123456789ab', '-p', 'x'], cwd, env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /cannot resume session_0123456789ab: no saved session/);
    assert.match(unknown.stderr, /remedy: list the saved sessions of this folder with: agentcli sessions list/);
    const nothing = await runCli(['--continue', '-p', 'x'], cwd, env);
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /no saved session in .* to continue/);
    const both = await runCli(['--continue', '--resume', 'session_0123456789ab', '-p', 'x'], cwd, env);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--resume <id> and --continue contradict each other/);
    const traversal = await runCli(['sessions', 'show', '../../etc/passwd'], cwd, env);
    assert.equal(traversal.code, 1);
    assert.match(traversal.stderr, /no saved session "\.\.\/\.\.\/etc\/passwd"/);
    const badAction = await runCli(['sessions', 'open'], cwd, env);
    assert.equal(badAction.code, 2);
    assert.match(badAction.stderr, /unknown action "open": use list, show or rm/);
    assert.equal(chat().length, 0, 'no model request was made');
  });
});
