import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, runCli, testEnv } from '../../helpers/runtime-process';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { GO_MODULE, TS_MOCHA } from '../learning/fixtures';

const SKILL_TEXT = '---\nname: go-errors\ndescription: Error handling here\n---\n# Errors\n\nWrap with %w.\n';

describe('agentcli skills', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(() => stub.close());

  it('recommend prints each pick with its score and reasons; --json gives the records', async () => {
    const cwd = makeWorkspace(GO_MODULE);
    const r = await runCli(['skills', 'recommend'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.startsWith('go-modules  100%  Go modules\n    - module file go.mod\n    - 3 Go files (100% of source files)\n'), r.stdout);
    assert.match(r.stdout, /github-actions {2}70% {2}GitHub Actions workflows\n {4}- workflow \.github\/workflows\/ci\.yml/);
    const json = await runCli(['skills', 'recommend', '--json'], cwd);
    assert.deepEqual(JSON.parse(json.stdout).recommendations.map((x: { name: string }) => x.name), ['go-modules', 'github-actions', 'docker']);
  });

  it('learn writes the learned skills (project, or --user), list shows them', async () => {
    const cwd = makeWorkspace(TS_MOCHA);
    const env = testEnv();
    const learned = await runCli(['skills', 'learn'], cwd, env);
    assert.equal(learned.code, 0, learned.stderr);
    assert.equal(
      learned.stdout,
      `created: learned-node-testing-mocha (${path.join(cwd, '.agentcli/skills/learned-node-testing-mocha/SKILL.md')})\n` +
        `created: learned-typescript-project (${path.join(cwd, '.agentcli/skills/learned-typescript-project/SKILL.md')})\n`,
    );
    assert.match(learned.stderr, /\[1\/2\] learned-node-testing-mocha\n\[2\/2\] learned-typescript-project\n/);
    const user = await runCli(['skills', 'learn', '--user', '--json'], cwd, env);
    assert.deepEqual(JSON.parse(user.stdout).written.map((w: { path: string }) => w.path), [
      path.join(env.HOME!, '.agentcli/skills/learned-node-testing-mocha/SKILL.md'),
      path.join(env.HOME!, '.agentcli/skills/learned-typescript-project/SKILL.md'),
    ]);
    const list = await runCli(['skills', 'list', '--json'], cwd, env);
    assert.deepEqual(JSON.parse(list.stdout).skills.map((s: { name: string; scope: string }) => `${s.scope}:${s.name}`), [
      'project:learned-node-testing-mocha',
      'project:learned-typescript-project',
    ]);
    const plain = await runCli(['skills', 'list'], cwd, env);
    assert.match(plain.stdout, /^learned-node-testing-mocha {2}project learned {2}Testing with mocha for calc/);
  });

  it('generate shows the drafted SKILL.md as a diff and writes it with --yes; without it nothing is written', async () => {
    const cwd = makeWorkspace(GO_MODULE, stub.origin);
    const rel = '.agentcli/skills/go-errors/SKILL.md';
    stub.enqueue({ toolCalls: [{ name: 'grep', arguments: { pattern: 'err' } }] }, { toolCalls: [{ name: 'write_file', arguments: { path: rel, content: SKILL_TEXT } }] }, { text: 'drafted' });
    const declined = await runCli(['skills', 'generate', 'go-errors', 'how errors are handled'], cwd);
    assert.equal(declined.code, 1, declined.stderr);
    assert.match(declined.stdout, /\+\+\+ b\/\.agentcli\/skills\/go-errors\/SKILL\.md/);
    assert.match(declined.stderr, /not written \(answer yes, or pass --yes\)/);
    assert.equal(existsSync(path.join(cwd, rel)), false);

    stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: rel, content: SKILL_TEXT } }] }, { text: 'drafted' });
    const accepted = await runCli(['skills', 'generate', 'go-errors', 'how errors are handled', '--yes'], cwd);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.equal(readFileSync(path.join(cwd, rel), 'utf8'), SKILL_TEXT);
  });

  it('usage errors name what is wrong', async () => {
    const cwd = makeWorkspace({});
    const bad = await runCli(['skills', 'generate', 'Bad_Name', 'x'], cwd);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /"name" "Bad_Name" is not a valid skill name: use lower-case letters/);
    const missing = await runCli(['skills', 'generate', 'ok-name'], cwd);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /generate needs a name and a description/);
    const unknown = await runCli(['skills', 'forget'], cwd);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown action "forget": use list, recommend, learn or generate/);
    const help = await runCli(['skills', '--help'], cwd);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: agentcli skills list/);
  });
});
