import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, RuntimeStartError } from '../../src/sdk';
import { looksLikePromptPath } from '../../src/protocol/prompt-source';
import { planLaunch, promptArgs, resolveCliPath } from '../../src/sdk/launch';
import { makeTempDir } from '../helpers/temp-dir';

describe('sdk launch planning', () => {
  const dir = makeTempDir('sdk-launch-');
  const cli = path.join(dir, 'cli.js');
  writeFileSync(cli, '');
  writeFileSync(path.join(dir, 'persona.md'), 'You are terse.\n');

  it('tells paths from inline text by the shared rule', () => {
    for (const p of ['./a.md', '../x/y.txt', '/abs/file', '~/p.md', 'prompts/sys.md', 'C:\\p\\a.txt', 'persona.MD', 'x.prompt']) {
      assert.ok(looksLikePromptPath(p), p);
    }
    for (const t of ['You are a helpful agent.', 'Be terse', 'line1\nline2.md', '', 'package.json', 'Be-brief.', 'see ./a.md', '.md']) {
      assert.ok(!looksLikePromptPath(t), t);
    }
  });

  it('passes a path-like prompt as an absolute file path, inline text as text, and refuses a missing file', () => {
    const sys = ['--sys-prompt', '--sys-prompt-file'] as const;
    assert.deepEqual(promptArgs('persona.md', dir, 'systemPrompt', ...sys), ['--sys-prompt-file', path.join(dir, 'persona.md')]);
    assert.deepEqual(promptArgs('Be brief.', dir, 'systemPrompt', ...sys), ['--sys-prompt', 'Be brief.']);
    // A name of an existing file that is not path-like stays text: it is never re-read as a file.
    writeFileSync(path.join(dir, 'package.json'), '{"name":"secret"}');
    assert.deepEqual(promptArgs('package.json', dir, 'systemPrompt', ...sys), ['--sys-prompt', 'package.json']);
    assert.throws(
      () => promptArgs('./missing.md', dir, 'systemPrompt', ...sys),
      (e: unknown) => e instanceof InvalidArgumentError && /systemPrompt "\.\/missing\.md" .*not found; pass inline text or an existing file/.test(e.message),
    );
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
      cli, '--mode', 'rpc', '--model', 'm1', '--sys-prompt-file', path.join(dir, 'persona.md'),
      '--append-system-prompt', 'Extra rules.', '--append-system-prompt', 'Be kind.', '--skill', 'review', '--skill', 'test',
      '--max-iterations', '7', '--permission-mode', 'restricted', '--bare',
    ]);
    assert.equal(plan.env.FOO, 'bar');
    assert.equal('HOME' in plan.env, false);
    assert.equal(plan.env.SERVICE_DEBUG, 'true');
    assert.equal(plan.command, process.execPath);
  });

  it('asks the runtime to skip the project config only when told (an untrusted folder)', () => {
    assert.ok(planLaunch({ cwd: dir, cliPath: cli, projectConfig: false }).args.includes('--no-project-config'));
    assert.ok(!planLaunch({ cwd: dir, cliPath: cli, projectConfig: true }).args.includes('--no-project-config'));
    assert.ok(!planLaunch({ cwd: dir, cliPath: cli }).args.includes('--no-project-config'));
  });

  it('rejects bad options with errors that name them', () => {
    assert.throws(() => planLaunch({ cwd: path.join(dir, 'nope'), cliPath: cli }), /cwd .* is not an existing directory/);
    assert.throws(() => planLaunch({ cwd: dir, cliPath: cli, maxIterations: 0 }), /maxIterations must be a positive integer/);
    assert.throws(() => planLaunch({ cwd: dir, cliPath: cli, permissionMode: 'sometimes' as never }), /permissionMode must be one of/);
    assert.throws(() => planLaunch({ cwd: dir, cliPath: cli, skills: [''] }), /skills/);
    assert.throws(() => planLaunch({ cwd: dir, cliPath: cli, appendSystemPrompt: ['x'.repeat(200_000)] }), /appendSystemPrompt is 200000 bytes of inline text; .*pass the file's path/);
  });
});
