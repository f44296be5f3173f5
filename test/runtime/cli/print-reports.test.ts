import assert from 'node:assert/strict';
import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, makeWorkspace, runCli, testEnv, useStubbedRuntime, type CliResult } from '../../helpers/runtime-process';

/** Runs the built CLI (or a shell line) with the given stdin: a file descriptor, or 'pipe' left open (a socket nobody closes). */
function runWithStdin(args: string[], cwd: string, stdin: number | 'pipe' | 'ignore', shell = false): Promise<CliResult> {
  return new Promise((resolve) => {
    const stdio: StdioOptions = [stdin, 'pipe', 'pipe'];
    const proc = shell ? spawn('sh', ['-c', args[0]!], { cwd, env: testEnv(), stdio }) : spawn(process.execPath, [CLI, ...args], { cwd, env: testEnv(), stdio });
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (d) => (stdout += d));
    proc.stderr!.on('data', (d) => (stderr += d));
    proc.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe('agentcli one-shot runs: what stopped, what was denied, piped input', () => {
  const t = useStubbedRuntime();
  const lastUser = (n: number) => t.stub.requests[n]!.body.messages.at(-1).content as string;

  it('stopping at the iteration limit says so on stderr and still exits 0', async () => {
    const cwd = makeWorkspace({ 'hello.txt': 'hi\n' }, t.stub.origin);
    const read = { toolCalls: [{ name: 'read_file', arguments: { path: 'hello.txt' } }] };
    t.stub.enqueue(read, read, read);
    const r = await runCli(['--max-iterations', '2', '-p', 'read hello.txt'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(t.stub.requests.length, 2);
    assert.match(r.stderr, /agentcli: stopped after 2 model requests \(the iteration limit\); raise it with --max-iterations or maxIterations in the config\n/);
  });

  it('a protected path is refused with the only way to allow it (interactive), not --yolo or a rule', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const script = () => t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: '.agentcli/config.json', content: '{}' } }] }, { text: 'no' });
    for (const extra of [[], ['--yolo']]) {
      script();
      const r = await runCli([...extra, '-p', 'write the config'], cwd);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /permission denied: Write \.agentcli\/config\.json .*never allow a protected path; only an interactive approval can allow it \(run agentcli in a terminal, or use the editor\)/);
      assert.doesNotMatch(r.stderr, /pass --yolo|allow them with --yolo|allow rule such as/, r.stderr);
      assert.match(r.stderr, /1 action\(s\) were denied: write_file \.agentcli\/config\.json; only an interactive approval can allow these/);
    }
  });

  it('denied actions are summarised on stderr and listed in the --json result; the exit code stays 0', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'out.txt', content: 'x' } },
          { name: 'run_command', arguments: { command: 'echo hi > /etc/agentcli-test' } },
        ],
      },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'x' } }] },
      { text: 'gave up' },
    );
    const r = await runCli(['--json', '-p', 'write'], cwd);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, 'completed');
    assert.deepEqual(
      out.denied.map((d: { tool: string; target: string }) => [d.tool, d.target]),
      [
        ['write_file', 'out.txt'],
        ['run_command', 'echo hi > /etc/agentcli-test'],
      ],
      'each action once, in order',
    );
    assert.match(out.denied[0].reason, /needs your approval/);
    assert.match(out.denied[1].reason, /protected/);
    assert.match(r.stderr, /agentcli: 2 action\(s\) were denied: write_file out\.txt, run_command echo hi > \/etc\/agentcli-test\n/);
    assert.match(r.stderr, /\n {2}write_file out\.txt: allow these with --yolo or an allow rule such as Write\(out\.txt\) \(permissions\.allow in \.agentcli\/config\.json\)\n/);
    assert.match(r.stderr, /\n {2}run_command echo hi > \/etc\/agentcli-test: only an interactive approval can allow these/);
    assert.equal(existsSync(path.join(cwd, 'out.txt')), false);
  });

  it('a run with nothing denied has "denied": [] and no summary', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'fine' });
    const r = await runCli(['--json', '-p', 'hi'], cwd);
    assert.deepEqual(JSON.parse(r.stdout).denied, []);
    assert.doesNotMatch(r.stderr, /were denied/);
  });

  it('-p with a file or a pipe on stdin sends the prompt followed by the input as a stdin block', async () => {
    const cwd = makeWorkspace({ 'log.txt': 'line one\nline ```two```\n' }, t.stub.origin);
    t.stub.enqueue({ text: 'explained' }, { text: 'explained again' });
    const fd = openSync(path.join(cwd, 'log.txt'), 'r');
    const fromFile = await runWithStdin(['-p', 'explain'], cwd, fd).finally(() => closeSync(fd));
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(lastUser(0), 'explain\n\n````stdin\nline one\nline ```two```\n````');
    const piped = await runWithStdin([`cat log.txt | ${shellQuote(process.execPath)} ${shellQuote(CLI)} -p explain`], cwd, 'ignore', true);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(lastUser(1), 'explain\n\n````stdin\nline one\nline ```two```\n````');
  });

  it('-p never reads a stdin socket that stays open (a parent process that never closes it)', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'ok' });
    const r = await runWithStdin(['-p', 'just this'], cwd, 'pipe');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastUser(0), 'just this');
  });

  it('piped input over 1 MB is refused with the limit and what to do (exit 2)', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const big = path.join(cwd, 'big.txt');
    writeFileSync(big, 'x'.repeat(1024 * 1024 + 1));
    const fd = openSync(big, 'r');
    const r = await runWithStdin(['-p', 'explain'], cwd, fd).finally(() => closeSync(fd));
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /the input piped to -p is over 1 MB; pipe an excerpt/);
    assert.equal(t.stub.requests.length, 0);
  });

  it('--help says --patch covers file tools only and shows piping into -p', async () => {
    const r = await runCli(['--help'], makeWorkspace({}));
    assert.match(r.stdout, /file tools only; commands run on the disk/);
    assert.match(r.stdout, /cat log\.txt \| agentcli -p "explain"/);
  });
});
