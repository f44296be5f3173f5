import * as assert from 'node:assert/strict';
import { runConfigCommand } from '../../../src/runtime/cli/config-command';
import { readJson, tempLayout, writeJson, type TempLayout } from '../config/helpers';

describe('agentcli config command', () => {
  let t: TempLayout;
  let out: string;
  let err: string;
  beforeEach(() => {
    t = tempLayout();
    out = '';
    err = '';
  });
  afterEach(() => t.cleanup());

  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runConfigCommand(args, { cwd: t.cwd, home: t.home, env, stdout: (s) => (out += s), stderr: (s) => (err += s) });

  it('set writes the user file by default and the project file with --project', async () => {
    assert.equal(await run(['set', 'localrunner.model', 'coder:7b']), 0);
    assert.equal(await run(['set', 'provider', 'localrunner', '--project']), 0);
    assert.deepEqual(readJson(t.userFile), { localrunner: { model: 'coder:7b' } });
    assert.deepEqual(readJson(t.projectFile), { provider: 'localrunner' });
    assert.match(out, new RegExp(`Set localrunner.model = coder:7b in ${t.userFile}`));
  });

  it('get prints the effective value, env included', async () => {
    writeJson(t.userFile, { localrunner: { numCtx: 2048 } });
    assert.equal(await run(['get', 'localrunner.numCtx']), 0);
    assert.equal(await run(['get', 'model'], { SERVICE_MODEL: 'moa' }), 0);
    assert.equal(out, '2048\nmoa\n');
    assert.equal(await run(['get', 'serviceai.apiKey']), 1);
    assert.match(err, /serviceai.apiKey is not set/);
  });

  it('masks secrets unless --show-secret', async () => {
    await run(['set', 'vendorapi.apiKey', 'sk-abcdefghijklmnop']);
    assert.match(out, /Set vendorapi.apiKey = sk-…mnop/);
    assert.doesNotMatch(out, /abcdefghijkl/);
    out = '';
    await run(['get', 'vendorapi.apiKey']);
    await run(['get', 'vendorapi.apiKey', '--show-secret']);
    await run(['get', 'vendorapi']);
    assert.equal(out.split('\n')[0], 'sk-…mnop');
    assert.equal(out.split('\n')[1], 'sk-abcdefghijklmnop');
    assert.match(out.split('\n')[2] ?? '', /"apiKey":"sk-…mnop"/);
  });

  it('list prints every effective value with secrets masked', async () => {
    writeJson(t.userFile, { cloudhub: { clientSecret: 'very-secret-value-9876' }, permissions: { allow: ['Bash(ls:*)'] } });
    assert.equal(await run(['list']), 0);
    assert.match(out, /^provider = serviceai$/m);
    assert.match(out, /^localrunner\.numCtx = 4096$/m);
    assert.match(out, /^cloudhub\.clientSecret = ver…9876$/m);
    assert.match(out, /^permissions\.allow = \["Bash\(ls:\*\)"\]$/m);
    assert.doesNotMatch(out, /very-secret-value/);
  });

  it('path prints both files', async () => {
    assert.equal(await run(['path']), 0);
    assert.equal(out, `user: ${t.userFile}\nproject: ${t.projectFile}\n`);
  });

  it('reports invalid values and bad usage with exit code 2 (usage and configuration errors)', async () => {
    assert.equal(await run(['set', 'localrunner.temperature', '9']), 2);
    assert.match(err, /"localrunner.temperature" must be a number from 0 to 1 \(got 9\)/);
    err = '';
    for (const args of [[], ['frobnicate'], ['set', 'model'], ['get'], ['list', 'extra'], ['set', 'a', 'b', '--force']]) {
      assert.equal(await run(args), 2, `args ${JSON.stringify(args)}`);
    }
    assert.match(err, /Usage: agentcli config <command>/);
    assert.match(err, /unknown option --force/);
  });

  it('set notes when the project file overrides the written value here, and suggests --project', async () => {
    writeJson(t.projectFile, { provider: 'ggufserver' });
    assert.equal(await run(['set', 'provider', 'localrunner']), 0);
    assert.match(out, /Set provider = localrunner in /);
    assert.equal(
      err,
      `note: ${t.projectFile} also sets provider and overrides the user file in this folder (effective value: ggufserver); ` +
        'to change it here: agentcli config set provider <value> --project\n',
    );
    err = '';
    assert.equal(await run(['set', 'provider', 'ggufserver']), 0);
    assert.equal(err, '', 'no note when the effective value is the written one');
  });

  it('set notes when an environment variable overrides the written value', async () => {
    assert.equal(await run(['set', 'provider', 'localrunner', '--project'], { SERVICE_PROVIDER: 'vendorapi' }), 0);
    assert.match(err, /^note: the environment variable SERVICE_PROVIDER overrides provider here \(effective value: vendorapi\); unset it/);
  });

  it('--help (also -h, after a command) prints the usage and exits 0', async () => {
    for (const args of [['--help'], ['-h'], ['set', '--help']]) {
      out = '';
      assert.equal(await run(args), 0, err);
      assert.match(out, /^Usage: agentcli config <command>/);
    }
    assert.equal(err, '');
  });

  it('get and list warn about an unknown key in a file, with the likely key', async () => {
    writeJson(t.userFile, { maxIteration: 5 });
    assert.equal(await run(['get', 'provider']), 0);
    assert.equal(err, `agentcli: ${t.userFile}: unknown key "maxIteration" (kept, but agentcli does not use it); did you mean "maxIterations"?\n`);
  });
});
