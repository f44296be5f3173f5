import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InvalidArgumentError, RuntimeStartError } from '../../src/sdk';
import { looksLikePath, planLaunch, resolveCliPath, resolvePromptText } from '../../src/sdk/launch';

describe('sdk launch planning', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sdk-launch-'));
  const cli = path.join(dir, 'cli.js');
  writeFileSync(cli, '');
  writeFileSync(path.join(dir, 'persona.md'), 'You are terse.\n');

  it('tells paths from inline text', () => {
    for (const p of ['./a.md', '../x/y.txt', '/abs/file', '~/p.md', 'prompts/sys.md', 'C:\\p\\a.txt']) assert.ok(looksLikePath(p), p);
    for (const t of ['You are a helpful agent.', 'Be terse', 'line1\nline2.md', '']) assert.ok(!looksLikePath(t), t);
  });

  it('reads a path-like prompt from the file and refuses a missing one', () => {
    assert.equal(resolvePromptText('persona.md', dir, 'systemPrompt'), 'You are terse.\n');
    assert.equal(resolvePromptText('Be brief.', dir, 'systemPrompt'), 'Be brief.');
    assert.throws(() => resolvePromptText('./missing.md', dir, 'systemPrompt'), (e: unknown) => e instanceof InvalidArgumentError && /missing\.md/.test(e.message));
  });

  it('resolves the CLI from the option, then SERVICE_CLI_PATH, and names a missing one', () => {
    assert.equal(resolveCliPath(cli, {}), cli);
    assert.equal(resolveCliPath(undefined, { SERVICE_CLI_PATH: cli }), cli);
    assert.throws(() => resolveCliPath(path.join(dir, 'nope.js'), {}), (e: unknown) => e instanceof RuntimeStartError && /nope\.js/.test(e.message));
  });

  it('builds the runtime command line and environment', () => {
    const plan = planLaunch({
      cwd: dir,
      cliPath: cli,
      model: 'm1',
      systemPrompt: 'persona.md',
      appendSystemPrompt: ['Extra rules.', 'Be kind.'],
      skills: ['review', 'test'],
      maxIterations: 7,
      permissionMode: 'restricted',
      args: ['--bare'],
      env: { FOO: 'bar', HOME: undefined },
      debug: true,
    });
    assert.deepEqual(plan.args, [
      cli, '--mode', 'rpc', '--model', 'm1', '--sys-prompt', 'You are terse.\n',
      '--append-system-prompt', 'Extra rules.\n\nBe kind.', '--skill', 'review', '--skill', 'test',
      '--max-iterations', '7', '--permission-mode', 'restricted', '--bare',
    ]);
    assert.equal(plan.env.FOO, 'bar');
    assert.equal('HOME' in plan.env, false);
    assert.equal(plan.env.SERVICE_DEBUG, 'true');
    assert.equal(plan.command, process.execPath);
  });

  it('rejects bad options with errors that name them', () => {
    assert.throws(() => planLaunch({ cwd: path.join(dir, 'nope'), cliPath: cli }), /cwd .* is not an existing directory/);
    assert.throws(() => planLaunch({ cwd: dir, cliPath: cli, maxIterations: 0 }), /maxIterations must be a positive integer/);
    assert.throws(() => planLaunch({ cwd: dir, cliPath: cli, permissionMode: 'sometimes' as never }), /permissionMode must be one of/);
    assert.throws(() => planLaunch({ cwd: dir, cliPath: cli, skills: [''] }), /skills/);
    assert.throws(() => planLaunch({ cwd: dir, cliPath: cli, appendSystemPrompt: ['x'.repeat(200_000)] }), /appendSystemPrompt is 200000 bytes/);
  });
});
