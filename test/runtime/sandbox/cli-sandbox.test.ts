import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, runCli, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';
import { makeTempDir } from '../../helpers/temp-dir';

const VENDOR_KEY = 'sk-vendor-canary-7f3a9c1e5b';
const SERVICE_KEY = 'svc-canary-key-0d8e2b6a41';
const ENV_SECRETS = { VENDORAPI_API_KEY: VENDOR_KEY, SERVICE_API_KEY: SERVICE_KEY };

/** Live processes whose command line contains `marker` (zombies left out); `sleepsOnly`: just the `sleep` commands. */
function processesWith(marker: string, sleepsOnly = false): string[] {
  const out = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes(marker) && !l.startsWith('Z') && !l.includes('ps -eo'))
    .filter((l) => !sleepsOnly || /^\S+\s+sleep /.test(l));
}

async function until(check: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('sandbox and secrets in the real runtime', function () {
  this.timeout(60_000);
  const t = useStubbedRuntime();

  const toolResults = (): string[] =>
    t.stub.requests.flatMap((r) => (r.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').map((m) => m.content));

  it('--yolo -p: no command output, file read or search shows a provider key, and the model never receives one', async () => {
    const cwd = makeWorkspace({ 'notes/.env': `VENDORAPI_API_KEY=${VENDOR_KEY}\n` }, t.stub.origin);
    // The /proc reads are written so the risky-command check lets them run (it only reads text): the sandbox must hold.
    // Each prints a computed marker that is not in its own text, so a refusal quoting the command cannot pass for a run.
    const commands = [
      'printenv',
      'env',
      'echo "service=$SERVICE_API_KEY vendor=$VENDORAPI_API_KEY"',
      'cd /proc/$PPID && tr "\\0" "\\n" < environ; echo; echo "ppid-$((40+2))"',
      'for f in /proc/*/env*; do tr "\\0" "\\n" < "$f"; done 2>/dev/null; echo "loop-$((40+3))"',
      'cat notes/.env',
    ];
    t.stub.enqueue(
      {
        toolCalls: [
          ...commands.map((command) => ({ name: 'run_command', arguments: { command } })),
          { name: 'read_file', arguments: { path: 'notes/.env' } },
          { name: 'grep', arguments: { pattern: 'sk-vendor' } },
        ],
      },
      { text: 'done' },
    );
    const r = await runCli(['--yolo', '-p', 'show me the environment'], cwd, testEnv(ENV_SECRETS));
    assert.equal(r.code, 0, r.stderr);
    const results = toolResults();
    assert.equal(results.length, commands.length + 2);
    assert.match(results[0]!, /PATH=/, 'printenv ran');
    assert.match(results[2]!, /service= vendor=/, 'the variables are not set for commands');
    assert.match(results[3]!, /ppid-42/);
    assert.match(results[4]!, /loop-43/);
    assert.match(results[4]!, /PATH=/, 'the loop read the environment of the processes it can see');
    assert.match(results[6]!, /VENDORAPI_API_KEY=\[redacted\]/, 'read_file of a file holding the key shows it masked');
    assert.match(results[7]!, /\[redacted\]/, 'grep output masked');
    const everything = JSON.stringify(t.stub.requests) + r.stdout + r.stderr;
    assert.ok(!everything.includes(VENDOR_KEY), 'the vendor key reached the model or the output');
    assert.ok(!everything.includes(SERVICE_KEY), 'the service key reached the model or the output');
  });

  it('gives commands a private /tmp for the session, removed when the session ends', async () => {
    const tmp = makeTempDir('agentcli-tmp-');
    const cwd = makeWorkspace({}, t.stub.origin);
    const name = `private-${Date.now()}`;
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: `echo hi > /tmp/${name} && cat /tmp/${name}` } }] }, { text: 'ok' });
    const r = await runCli(['--yolo', '-p', 'x'], cwd, testEnv({ TMPDIR: tmp }));
    assert.equal(r.code, 0, r.stderr);
    assert.match(toolResults()[0]!, /^hi\n/);
    assert.equal(existsSync(`/tmp/${name}`), false);
    assert.equal(existsSync(path.join(tmp, 'agentcli-tmp')), false, 'the session temp folder is removed at the end');
  });

  it('with sandbox.mode off, a command can read the runtime environment, but what it prints is masked', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv(ENV_SECRETS);
    // only the user's own config can turn the sandbox off (a project file cannot loosen it)
    mkdirSync(path.join(env.HOME!, '.agentcli'), { recursive: true });
    writeFileSync(path.join(env.HOME!, '.agentcli', 'config.json'), JSON.stringify({ sandbox: { mode: 'off' } }));
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo "v=$VENDORAPI_API_KEY"; cd /proc/$PPID && tr "\\0" "\\n" < environ' } }] }, { text: 'ok' });
    const r = await runCli(['--yolo', '-p', 'x'], cwd, env);
    assert.equal(r.code, 0, r.stderr);
    const [result] = toolResults();
    assert.match(result!, /^v=\n/);
    assert.match(result!, /VENDORAPI_API_KEY=\[redacted\]/);
    assert.ok(!JSON.stringify(t.stub.requests).includes(VENDOR_KEY));
  });

  it('a command a person approved (rpc) still cannot read the runtime environment', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'cat /proc/$PPID/environ | tr "\\0" "\\n"; echo "ran-$((40+2))"' } }] }, { text: 'ok' });
    const rt = await t.start(cwd, { env: testEnv(ENV_SECRETS) });
    await rt.request('prompt', { message: 'x' });
    const req = await rt.waitForEvent('permission_request');
    await rt.request('permissionResponse', { requestId: req.requestId, allowed: true });
    await rt.waitForEvent('agent_end');
    const [result] = toolResults();
    assert.match(result!, /ran-42/);
    assert.doesNotMatch(result!, /VENDORAPI_API_KEY|redacted/, 'the runtime environment is not visible at all');
  });

  it('streamed tool_update output is masked too (rpc)', async () => {
    const cwd = makeWorkspace({ 'k.txt': VENDOR_KEY }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'printf "a"; sleep 0.2; cat k.txt; sleep 0.2; printf " z"' } }] }, { text: 'ok' });
    const rt = await t.start(cwd, { args: ['--permission-mode', 'unrestricted'], env: testEnv(ENV_SECRETS) });
    await rt.request('prompt', { message: 'x' });
    await rt.waitForEvent('agent_end');
    const streamed = rt.events.flatMap((e) => (e.type === 'tool_update' ? [e.output] : [])).join('');
    assert.equal(streamed, 'a[redacted] z');
    assert.ok(!JSON.stringify(rt.events).includes(VENDOR_KEY));
  });

  it('leaves no process behind when the runtime is SIGKILLed mid-command', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const marker = `${process.pid % 1000}${Date.now() % 100000}`;
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: `sleep 300.${marker} & (sleep 301.${marker} &) ; sleep 302.${marker}` } }] });
    const rt = await t.start(cwd, { args: ['--permission-mode', 'unrestricted'] });
    await rt.request('prompt', { message: 'run it' });
    await rt.waitForEvent('tool_start');
    await until(() => processesWith(`.${marker}`, true).length === 3, 'the three sleeps are running');
    rt.proc.kill('SIGKILL');
    await until(() => processesWith(`.${marker}`).length === 0, `no sleep survives the runtime: ${processesWith(`.${marker}`).join('; ')}`);
  });

  it('getState reports the sandbox; an unusable one is named at rpc start and commands fail with the fix, running nothing', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran.txt' } }] }, { text: 'ok' });
    const rt = await t.start(cwd, { args: ['--permission-mode', 'unrestricted'], env: testEnv({ AGENTCLI_BWRAP: '/nonexistent/bwrap' }) });
    const state = await rt.request('getState', {});
    assert.equal(state.sandbox?.mode, 'workspace-write');
    assert.equal(state.sandbox?.available, false);
    assert.equal(state.sandbox?.network, false);
    assert.match(state.sandbox?.reason ?? '', /apt-get install bubblewrap/);
    await rt.request('prompt', { message: 'x' });
    const end = await rt.waitForEvent('tool_end');
    assert.equal(end.success, false);
    assert.match(end.error ?? '', /^\[not run: commands run only in a sandbox, and it cannot start: bubblewrap \(\/nonexistent\/bwrap\) is not installed/);
    await rt.waitForEvent('agent_end');
    assert.equal(existsSync(path.join(cwd, 'ran.txt')), false);
    assert.match(rt.stderr(), /\[agentcli\] sandbox unavailable: commands will not run.*apt-get install bubblewrap/);

    const working = await t.start(cwd, { args: ['--permission-mode', 'unrestricted'] });
    const ok = await working.request('getState', {});
    assert.deepEqual(ok.sandbox, { mode: 'workspace-write', available: true, network: false });
  });

  it('sandbox.mode off (set with agentcli config set) runs commands when the sandbox cannot start', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv({ AGENTCLI_BWRAP: '/nonexistent/bwrap' });
    const set = await runCli(['config', 'set', 'sandbox.mode', 'off'], cwd, env);
    assert.equal(set.code, 0, set.stderr);
    const bad = await runCli(['config', 'set', 'sandbox.mode', 'none'], cwd, env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /sandbox\.mode.*must be one of "workspace-write", "read-only", "off"/);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran.txt && echo ran' } }] }, { text: 'ok' });
    const r = await runCli(['--yolo', '-p', 'x'], cwd, env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(path.join(cwd, 'ran.txt')), true);
  });

  it('rejects a bad shell.env list with the key and an example', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { shell: { env: { include: ['GITHUB TOKEN'] } } });
    const r = await runCli(['-p', 'x'], cwd);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /shell\.env\.include.*variable names or globs/);
    writeFileSync(path.join(cwd, '.agentcli', 'config.json'), JSON.stringify({ provider: 'ggufserver', ggufserver: { baseUrl: t.stub.origin }, sandbox: { network: 'yes' } }));
    const r2 = await runCli(['-p', 'x'], cwd);
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /sandbox\.network.*must be true or false/);
    assert.ok(readFileSync(path.join(cwd, '.agentcli', 'config.json'), 'utf8').includes('network'));
  });
});
