import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, runCli, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';

describe('agentcli: one-shot runs', () => {
  const t = useStubbedRuntime();

  it('-p streams the answer to stdout', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'Hello from the model.' });
    const r = await runCli(['-p', 'say hello'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Hello from the model.\n');
    assert.equal(t.stub.requests[0]!.body.stream, true);
    assert.equal(t.stub.requests[0]!.body.messages.at(-1).content, 'say hello');
  });

  it('--json prints one object with type and content', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'The answer is 4.' });
    const r = await runCli(['--json', 'what is 2+2'], cwd);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.type, 'result');
    assert.equal(out.content, 'The answer is 4.');
    assert.equal(out.status, 'completed');
  });

  it('reads the prompt from stdin when piped', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'ok' });
    const r = await runCli([], cwd, testEnv(), 'piped prompt');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(t.stub.requests[0]!.body.messages.at(-1).content, 'piped prompt');
  });

  it('without a host, a write that needs approval is denied and it says so; --yolo writes', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const script = () =>
      t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'HELLO\n' } }] }, { text: 'done' });
    script();
    const denied = await runCli(['-p', 'write it'], cwd);
    assert.equal(denied.code, 0, denied.stderr);
    assert.match(denied.stderr, /permission denied: .*--yolo/s);
    assert.equal(existsSync(path.join(cwd, 'out.txt')), false);
    script();
    const allowed = await runCli(['--yolo', '-p', 'write it'], cwd);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(readFileSync(path.join(cwd, 'out.txt'), 'utf8'), 'HELLO\n');
  });

  it('--restricted refuses writes even with --json', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch x' } }] }, { text: 'could not' });
    const r = await runCli(['--restricted', '--json', '-p', 'touch'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(path.join(cwd, 'x')), false);
    assert.match(t.stub.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content, /restricted/);
  });

  it('--patch prints the run\'s edits as a unified diff and applies them', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'one\ntwo\n' }, t.stub.origin);
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'two', new_text: 'TWO' } },
          { name: 'write_file', arguments: { path: 'new/b.txt', content: 'bee\n' } },
        ],
      },
      { text: 'patched' },
    );
    const r = await runCli(['--patch', '--yolo', '-p', 'patch it'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /--- a\/a\.txt\n\+\+\+ b\/a\.txt/);
    assert.match(r.stdout, /-two\n\+TWO/);
    assert.match(r.stdout, /--- \/dev\/null\n\+\+\+ b\/new\/b\.txt/);
    assert.equal(readFileSync(path.join(cwd, 'a.txt'), 'utf8'), 'one\nTWO\n');
    assert.equal(readFileSync(path.join(cwd, 'new/b.txt'), 'utf8'), 'bee\n');
  });

  it('--patch with --json carries the patch in the result; without --yolo or an allow rule nothing is applied', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'x\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'y\n' } }] }, { text: 'ok' });
    const r = await runCli(['--patch', '--json', '-p', 'go'], cwd);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.match(out.patch, /-x\n\+y/);
    assert.deepEqual(out.applied, [{ path: 'a.txt', status: 'not_approved', rule: 'Write(a.txt)' }]);
    assert.equal(readFileSync(path.join(cwd, 'a.txt'), 'utf8'), 'x\n');
    assert.match(r.stderr, /not applied .*: a\.txt\n/);
    assert.match(r.stderr, /--yolo.*"Write\(a\.txt\)".*git apply/s);
  });

  it('--patch --json --yolo applies the batch', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'x\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'y\n' } }] }, { text: 'ok' });
    const r = await runCli(['--patch', '--json', '--yolo', '-p', 'go'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).applied, [{ path: 'a.txt', status: 'applied' }]);
    assert.equal(readFileSync(path.join(cwd, 'a.txt'), 'utf8'), 'y\n');
  });

  it('--patch applies only the writes an allow rule approves and lists the rest', async () => {
    const cwd = makeWorkspace({ 'src/a.ts': 'a\n', 'b.txt': 'b\n' }, t.stub.origin, { permissions: { allow: ['Write(src/**)'] } });
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'src/a.ts', content: 'A\n' } },
          { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } },
        ],
      },
      { text: 'ok' },
    );
    const r = await runCli(['--patch', '-p', 'go'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\+\+\+ b\/src\/a\.ts/);
    assert.match(r.stdout, /\+\+\+ b\/b\.txt/, 'the diff shows every change, applied or not');
    assert.equal(readFileSync(path.join(cwd, 'src/a.ts'), 'utf8'), 'A\n');
    assert.equal(readFileSync(path.join(cwd, 'b.txt'), 'utf8'), 'b\n');
    assert.match(r.stderr, /applied: src\/a\.ts/);
    assert.match(r.stderr, /not applied .*: b\.txt\n/);
  });

  it('-p reads inside permissions.additionalDirectories without --yolo', async () => {
    const outside = makeWorkspace({ 'data.csv': 'col\n42\n' });
    const cwd = makeWorkspace({}, t.stub.origin, { permissions: { additionalDirectories: [outside] } });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'data.csv') } }] }, { text: 'read it' });
    const r = await runCli(['-p', 'read the data'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /denied/);
    assert.match(t.stub.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content, /42/);
  });

  it('provider errors exit 1 with the remedy', async () => {
    const cwd = makeWorkspace({}, 'http://127.0.0.1:9');
    const r = await runCli(['-p', 'hi'], cwd);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /remedy: .*start the server/i);
  });
});

describe('agentcli: usage and config errors', () => {
  it('--version and --help', async () => {
    const cwd = makeWorkspace({});
    assert.match((await runCli(['--version'], cwd)).stdout, /^agentcli \d+\.\d+\.\d+\n$/);
    const help = await runCli(['--help'], cwd);
    assert.match(help.stdout, /--patch/);
    assert.match(help.stdout, /--mode <print\|rpc>/);
  });

  it('bad flags exit 2 naming the problem', async () => {
    const cwd = makeWorkspace({});
    const bad = await runCli(['--loop-type', 'zigzag', '-p', 'x'], cwd);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--loop-type must be one of react, plan-and-execute, parallel, reflexion \(got "zigzag"\)/);
    const unknown = await runCli(['--frobnicate'], cwd);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /frobnicate/);
    const iters = await runCli(['--max-iterations', '0', '-p', 'x'], cwd);
    assert.match(iters.stderr, /--max-iterations must be a positive integer/);
  });

  it('a bad config file is named with the key and what was expected', async () => {
    const cwd = makeWorkspace({ '.agentcli/config.json': JSON.stringify({ localrunner: { temperature: 3 } }) });
    const r = await runCli(['-p', 'x'], cwd);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /config\.json/);
    assert.match(r.stderr, /localrunner\.temperature/);
  });
});
