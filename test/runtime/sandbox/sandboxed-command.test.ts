import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CommandSandbox, sweepStaleTmpDirs, type CommandSandboxOptions } from '../../../src/runtime/sandbox/command-sandbox';
import { probeSandbox } from '../../../src/runtime/sandbox/probe';
import { createRunCommandTool } from '../../../src/runtime/tools/run-command';
import { DirectFiles } from '../../../src/runtime/workspace/files';
import { makeContext, runTool, tempDir, type TestContext } from '../tools/helpers';
import { requirePrerequisite } from '../../helpers/prerequisite';

describe('run_command in the sandbox (real bubblewrap)', function () {
  this.timeout(60_000);
  const tool = createRunCommandTool();
  let root: string;
  let other: string;
  let sessionTmp: string;
  let cleanups: Array<() => void>;
  let ctx: TestContext;

  const sandbox = (opts: Partial<CommandSandboxOptions> = {}) =>
    new CommandSandbox({ workspace: root, tmpDir: path.join(sessionTmp, 's1'), writableDirs: () => [ctx.outputDir], ...opts });
  const run = async (command: string, opts: Partial<CommandSandboxOptions> = {}, approved = false) =>
    runTool(tool, { command }, { ...ctx, sandbox: sandbox(opts), approvedByPerson: approved });

  beforeEach(() => {
    const dirs = [tempDir('agentcli-sbx-ws-'), tempDir('agentcli-sbx-other-'), tempDir('agentcli-sbx-tmp-'), tempDir('agentcli-sbx-out-')];
    [root, other, sessionTmp] = dirs.map((d) => d.dir) as [string, string, string];
    cleanups = dirs.map((d) => d.cleanup);
    ctx = makeContext(new DirectFiles(root, () => undefined), dirs[3]!.dir);
  });
  afterEach(() => cleanups.forEach((c) => c()));

  it('writes in the workspace, but not in another folder (even under the temp folder) nor outside', async () => {
    const result = await run(`echo in > inside.txt; echo out > ${other}/outside.txt; echo "other=$?"; touch /etc/agentcli-sbx-test; echo "etc=$?"`);
    assert.equal(readFileSync(path.join(root, 'inside.txt'), 'utf8'), 'in\n');
    assert.equal(existsSync(path.join(other, 'outside.txt')), false);
    assert.equal(existsSync('/etc/agentcli-sbx-test'), false);
    assert.match(result.output, /other=1/);
    assert.match(result.output, /Read-only file system/);
    assert.match(result.output, /etc=1/);
  });

  it('makes granted folders writable, but not a granted home folder or system folder', async () => {
    const home = path.join(other, 'home');
    mkdirSync(home);
    const granted = path.join(other, 'granted');
    mkdirSync(granted);
    const result = await run(`echo g > ${granted}/g.txt; echo "granted=$?"; echo h > ${home}/.bashrc; echo "home=$?"; touch /etc/agentcli-sbx; echo "etc=$?"`, {
      home,
      writableDirs: () => [granted, home, '/etc', '/'],
    });
    assert.match(result.output, /granted=0/);
    assert.match(result.output, /home=1/);
    assert.match(result.output, /etc=1/);
    assert.equal(existsSync(path.join(home, '.bashrc')), false);
  });

  it('keeps a private temp folder for the session: /tmp writes stay out of the real /tmp and last between commands', async () => {
    const name = `agentcli-sbx-${process.pid}-${Date.now()}`;
    await run(`echo kept > /tmp/${name}`);
    assert.equal(existsSync(`/tmp/${name}`), false);
    const again = await run(`cat /tmp/${name}`);
    assert.match(again.output, /^kept\n/);
    assert.equal(readFileSync(path.join(sessionTmp, 's1', name), 'utf8'), 'kept\n');
  });

  it('removes the temp folders of runtimes that are gone, not those of live ones', () => {
    const gone = spawnSync('true').pid!;
    for (const name of [`${gone}-session_a`, `${process.pid}-session_b`, 'not-a-session']) mkdirSync(path.join(sessionTmp, name, 'x'), { recursive: true });
    sweepStaleTmpDirs(sessionTmp);
    assert.equal(existsSync(path.join(sessionTmp, `${gone}-session_a`)), false);
    assert.equal(existsSync(path.join(sessionTmp, `${process.pid}-session_b`)), true);
    assert.equal(existsSync(path.join(sessionTmp, 'not-a-session')), true);
  });

  it('has no network unless sandbox.network is on', async () => {
    const server = net.createServer((s) => s.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const probe = `bash -c 'echo hi > /dev/tcp/127.0.0.1/${port}' && echo CONNECTED || echo REFUSED`;
      const blocked = await run(probe);
      assert.match(blocked.output, /REFUSED/);
      const allowed = await run(probe, { settings: { mode: 'workspace-write', network: true } });
      assert.match(allowed.output, /CONNECTED/);
    } finally {
      server.close();
    }
  });

  it('keeps .git hooks and config read-only, while git init, add and commit work', async () => {
    const result = await run(
      'git init -q && echo a > a.txt && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --oneline | wc -l',
    );
    assert.equal(result.isError, false, result.output);
    assert.match(result.output, /^1\n/);
    const attack = await run('echo "exit 0" > .git/hooks/pre-commit; echo "hooks=$?"; echo "[core]hooksPath=/tmp" >> .git/config; echo "config=$?"; echo b > b.txt && git add b.txt && git -c user.name=t -c user.email=t@e commit -qm second && echo committed');
    assert.match(attack.output, /hooks=1/);
    assert.match(attack.output, /config=1/);
    assert.match(attack.output, /committed/);
    assert.equal(existsSync(path.join(root, '.git/hooks/pre-commit')), false);
    assert.doesNotMatch(readFileSync(path.join(root, '.git/config'), 'utf8'), /hooksPath/);
  });

  it('protects the hooks and config of a gitdir named by a .git file', async () => {
    const gitDir = path.join(other, 'repo.git');
    execFileSync('git', ['init', '-q', '--separate-git-dir', gitDir, root]);
    const result = await run('echo x > "$(git rev-parse --git-dir)/hooks/post-checkout"; echo "hooks=$?"; git config core.fsmonitor evil; echo "config=$?"; echo c > c.txt; git add c.txt && echo added');
    assert.match(result.output, /hooks=1/);
    assert.match(result.output, /could not write config file/);
    assert.match(result.output, /added/, 'the gitdir outside the workspace stays writable for git itself');
    assert.equal(existsSync(path.join(gitDir, 'hooks/post-checkout')), false);
    assert.doesNotMatch(readFileSync(path.join(gitDir, 'config'), 'utf8'), /fsmonitor/);
  });

  it('keeps the project agentcli config read-only, even before it exists', async () => {
    const result = await run('mkdir -p .agentcli; echo \'{"sandbox":{"mode":"off"}}\' > .agentcli/config.json; echo "wrote=$?"');
    assert.match(result.output, /wrote=1/);
    assert.equal(existsSync(path.join(root, '.agentcli/config.json')), false);
  });

  it('hides the user config file with stored keys', async () => {
    const home = path.join(other, 'home');
    mkdirSync(path.join(home, '.agentcli'), { recursive: true });
    writeFileSync(path.join(home, '.agentcli/config.json'), '{"vendorapi":{"apiKey":"sk-stored-in-home-123"}}');
    const result = await run(`cat ${home}/.agentcli/config.json`, { home });
    assert.doesNotMatch(result.output, /sk-stored/);
    assert.match(result.output, /config\.json: Permission denied/);
  });

  it('runs an everyday npm test inside', async () => {
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'tiny', version: '1.0.0', scripts: { test: 'node test.js' } }));
    writeFileSync(path.join(root, 'test.js'), "require('fs').writeFileSync('result.txt', 'ok'); console.log('tiny tests passed');");
    const result = await run('npm test --silent');
    assert.equal(result.isError, false, result.output);
    assert.match(result.output, /tiny tests passed/);
    assert.equal(readFileSync(path.join(root, 'result.txt'), 'utf8'), 'ok');
  });

  it('moves the read-only home caches to the temp folder, unless the user set them or made them writable', () => {
    const home = path.join(other, 'home');
    mkdirSync(path.join(home, '.cache'), { recursive: true });
    const env = (extra: NodeJS.ProcessEnv, writable: string[] = []) => {
      const prepared = sandbox({ env: { PATH: '/usr/bin', HOME: home, ...extra }, writableDirs: () => writable }).prepare('true', root);
      assert.ok(prepared.ok);
      return prepared.env;
    };
    assert.equal(env({}).XDG_CACHE_HOME, '/tmp/.cache');
    assert.equal(env({}).npm_config_cache, '/tmp/.npm');
    assert.equal(env({ XDG_CACHE_HOME: '/elsewhere' }).XDG_CACHE_HOME, '/elsewhere');
    assert.equal(env({}, [path.join(home, '.cache')]).XDG_CACHE_HOME, undefined);
  });

  it('read-only mode writes nothing in the workspace', async () => {
    const result = await run('echo x > f.txt; echo "w=$?"; echo t > /tmp/t && cat /tmp/t', { settings: { mode: 'read-only', network: false } });
    assert.match(result.output, /w=1/);
    assert.match(result.output, /^t$/m);
    assert.equal(existsSync(path.join(root, 'f.txt')), false);
  });

  it('cannot reach a Unix socket under /run (a container engine socket is a way out), with or without network', async function () {
    const socketPath = `/run/agentcli-sbx-${process.pid}.sock`;
    const server = net.createServer((c) => c.end('hello from the host\n'));
    try {
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
    } catch {
      // /run not writable for this user: nothing to put a socket there (under CI=true, as root, it must be)
      requirePrerequisite(this, 'a writable /run (the test puts a Unix socket there)');
    }
    try {
      const probe = `[ -S ${socketPath} ] && echo "SOCKET_SEEN" || echo "no-socket-$((1+1))"`;
      for (const network of [false, true]) {
        const result = await run(probe, { settings: { mode: 'workspace-write', network } });
        assert.match(result.output, /no-socket-2/, `network ${network}`);
      }
    } finally {
      server.close();
    }
  });

  it('cannot undo its read-only mounts or change kernel settings, even as root', async () => {
    const before = readFileSync('/proc/sys/kernel/domainname', 'utf8');
    const result = await run(`mount -o remount,rw,bind / 2>&1; echo "mount=$?"; touch /etc/agentcli-sbx-root; echo "etc=$?"; echo agentcli-sbx > /proc/sys/kernel/domainname; echo "sysctl=$?"`);
    assert.match(result.output, /mount=(?!0)\d+/);
    assert.match(result.output, /etc=1/);
    assert.match(result.output, /sysctl=1/);
    assert.equal(existsSync('/etc/agentcli-sbx-root'), false);
    assert.equal(readFileSync('/proc/sys/kernel/domainname', 'utf8'), before);
  });

  it('sees only its own processes: not the runtime, not its environment', async () => {
    const result = await run(`ls /proc | grep -c '^[0-9]' ; cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo SAW_RUNTIME || echo NO_RUNTIME`);
    assert.match(result.output, /NO_RUNTIME/);
    const count = Number(result.output.split('\n')[0]);
    assert.ok(count < 10, `a fresh pid namespace has a handful of processes, saw ${count}`);
  });

  it('a call a person approved may write outside the workspace, but still cannot see the runtime', async () => {
    const result = await run(`echo ok > ${other}/approved.txt; cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo SAW_RUNTIME || echo NO_RUNTIME`, {}, true);
    assert.equal(readFileSync(path.join(other, 'approved.txt'), 'utf8'), 'ok\n');
    assert.match(result.output, /NO_RUNTIME/);
  });

  it('when the sandbox cannot start, nothing runs and the result says why and how to fix it', async () => {
    const probe = () => probeSandbox({ PATH: process.env.PATH, AGENTCLI_BWRAP: '/nonexistent/bwrap' }, 'linux');
    const result = await run('touch ran.txt', { probe });
    assert.equal(result.isError, true);
    assert.match(result.output, /^\[not run: commands run only in a sandbox, and it cannot start: bubblewrap \(\/nonexistent\/bwrap\) is not installed.*apt-get install bubblewrap.*agentcli config set sandbox\.mode off\]$/);
    assert.equal(existsSync(path.join(root, 'ran.txt')), false);
    const off = await run('touch ran.txt && echo done', { probe, settings: { mode: 'off', network: false } });
    assert.match(off.output, /done/);
    assert.equal(existsSync(path.join(root, 'ran.txt')), true);
  });
});
