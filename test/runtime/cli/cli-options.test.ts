import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenAIStub } from '../../stubs/openai-stub';
import { makeWorkspace, runCli, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';

const chats = (stub: OpenAIStub) => stub.requests.filter((r) => r.path.endsWith('/chat/completions'));
const systemMessage = (stub: OpenAIStub, i = 0): string => chats(stub)[i]!.body.messages[0].content;

describe('agentcli: options reaching the model', () => {
  const t = useStubbedRuntime();

  it('--sys-prompt inline text replaces the system prompt; --append-system-prompt files and text follow in order', async () => {
    const cwd = makeWorkspace({ 'prompts/extra.md': 'FROM THE FILE\n', 'rules.txt': 'RULES FILE' }, t.stub.origin);
    t.stub.enqueue({ text: 'ok' });
    const r = await runCli(
      ['--sys-prompt', 'You are a pirate.', '--append-system-prompt', 'prompts/extra.md', '--append-system-prompt', 'Be brief.',
        '--append-system-prompt-file', 'rules.txt', '-p', 'hi'],
      cwd,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(systemMessage(t.stub), 'You are a pirate.\n\nFROM THE FILE\n\n\nBe brief.\n\nRULES FILE');
  });

  it('--sys-prompt with a file path sends the file; a name that is not path-like stays text', async () => {
    const cwd = makeWorkspace({ 'persona.md': 'PERSONA FROM FILE', 'package.json': '{"secret":1}' }, t.stub.origin);
    t.stub.enqueue({ text: 'ok' }, { text: 'ok' });
    const file = await runCli(['--sys-prompt', 'persona.md', '-p', 'hi'], cwd);
    assert.equal(file.code, 0, file.stderr);
    assert.equal(systemMessage(t.stub, 0), 'PERSONA FROM FILE');
    const text = await runCli(['--sys-prompt', 'package.json', '-p', 'hi'], cwd);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(systemMessage(t.stub, 1), 'package.json', 'package.json is not path-like: inline text, not the file');
  });

  it('a missing prompt file or an unknown skill exits 2 before any request, naming it', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const typo = await runCli(['--sys-prompt', './typo.md', '-p', 'hi'], cwd);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /--sys-prompt "\.\/typo\.md" \(.*typo\.md\) not found; pass inline text or an existing file/);
    const appended = await runCli(['--append-system-prompt-file', 'nope.txt', '-p', 'hi'], cwd);
    assert.equal(appended.code, 2);
    assert.match(appended.stderr, /--append-system-prompt-file "nope\.txt" .*not found/);
    const skill = await runCli(['--skill', 'missing', '-p', 'hi'], cwd);
    assert.equal(skill.code, 2);
    assert.match(skill.stderr, /skill "missing" not found: looked in .*\.agentcli[\\/]skills/);
    const rpc = await runCli(['--mode', 'rpc', '--skill', 'missing'], cwd);
    assert.equal(rpc.code, 2);
    assert.match(rpc.stderr, /skill "missing" not found/);
    assert.equal(chats(t.stub).length, 0);
  });

  it('a skill found at startup reaches the model', async () => {
    const cwd = makeWorkspace({ '.agentcli/skills/review.md': 'REVIEW CAREFULLY' }, t.stub.origin);
    t.stub.enqueue({ text: 'ok' });
    const r = await runCli(['--skill', 'review', '-p', 'hi'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(systemMessage(t.stub), /# Skill: review\nREVIEW CAREFULLY$/);
  });

  it('--model <provider>/<model> and --provider choose what the request carries', async () => {
    // The project picks localrunner (nothing listens there); the flags switch to the stubbed ggufserver.
    const cwd = makeWorkspace({}, t.stub.origin, { provider: 'localrunner', localrunner: { host: 'http://127.0.0.1:9' } });
    t.stub.enqueue({ text: 'ok' }, { text: 'ok' });
    const both = await runCli(['--model', 'ggufserver/qwen-test', '-p', 'hi'], cwd);
    assert.equal(both.code, 0, both.stderr);
    assert.equal(chats(t.stub)[0]!.body.model, 'qwen-test');
    const provider = await runCli(['--provider', 'ggufserver', '--model', 'other-model', '-p', 'hi'], cwd);
    assert.equal(provider.code, 0, provider.stderr);
    assert.equal(chats(t.stub)[1]!.body.model, 'other-model');
  });

  it('--bare ignores ~/.agentcli/config.json', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv();
    mkdirSync(path.join(env.HOME!, '.agentcli'), { recursive: true });
    writeFileSync(path.join(env.HOME!, '.agentcli', 'config.json'), JSON.stringify({ model: 'model-from-home' }));
    t.stub.enqueue({ text: 'ok' }, { text: 'ok' });
    const withHome = await runCli(['-p', 'hi'], cwd, env);
    assert.equal(withHome.code, 0, withHome.stderr);
    assert.equal(chats(t.stub)[0]!.body.model, 'model-from-home');
    const bare = await runCli(['--bare', '-p', 'hi'], cwd, env);
    assert.equal(bare.code, 0, bare.stderr);
    assert.notEqual(chats(t.stub)[1]!.body.model, 'model-from-home');
  });

  it('--max-iterations bounds the loop: the run stops with max_iterations', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'A\n' }, t.stub.origin);
    const read = { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] };
    t.stub.enqueue(read, read, read, read);
    const r = await runCli(['--max-iterations', '2', '--json', '-p', 'loop'], cwd);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, 'stopped');
    assert.equal(out.stoppedReason, 'max_iterations');
    assert.equal(chats(t.stub).length, 2);
  });

  it('a missing provider base URL is a configuration error: exit 2 with the remedy', async () => {
    const cwd = makeWorkspace({ '.agentcli/config.json': JSON.stringify({ provider: 'vendorapi' }) });
    const r = await runCli(['-p', 'hi'], cwd);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /remedy: /);
  });
});
