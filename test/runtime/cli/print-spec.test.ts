import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startServiceAiStub } from '../../stubs/serviceai-stub';
import { makeWorkspace, runCli, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';

/** One-shot runs against spec 001 (events and the SDK's command-line flags). */
describe('agentcli -p: spec 001 conformance', () => {
  const t = useStubbedRuntime();

  // Spec 001 §7: "transport, runtime or tool failure | `error` event with `code` and `error`". The CLI already shows a
  // failed tool on its ✗ line, so the tool_error event beside it is not printed a second time.
  it('a failed tool shows once, on its ✗ line, not again as "agentcli: error"', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo out; exit 4' } }] }, { text: 'it failed' });
    const r = await runCli(['--yolo', '-p', 'run it'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /✗ run_command \d+ ms: /);
    assert.doesNotMatch(r.stderr, /agentcli: error/);
    assert.equal(r.stdout, 'it failed\n');
  });

  // Spec 001 §4.6: "CI example shape: `agentcli --bare -p <prompt> --restricted --json local > <file>` with environment
  // `SERVICE_PROVIDER=serviceai`, `SERVICE_API_KEY=<API_KEY>`, `SERVICE_AI_API_KEY=<API_KEY>`" and "`--json` | JSON
  // output; the result object has `type` and `content`".
  it('the CI example runs: --bare -p <prompt> --restricted --json local prints one JSON result with type and content', async () => {
    const service = await startServiceAiStub();
    try {
      service.addKey('ci-key', 'Free');
      service.enqueueChat({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch made-by-ci' } }] }, { text: 'Summary: nothing to change.' });
      const cwd = makeWorkspace({});
      const env = testEnv({ SERVICE_PROVIDER: 'serviceai', SERVICE_API_KEY: 'ci-key', SERVICE_AI_API_KEY: 'ci-key', SERVICE_BASE_URL: service.origin });
      const r = await runCli(['--bare', '-p', 'review this repository', '--restricted', '--json', 'local'], cwd, env);
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(r.stdout) as { type: string; content: string; status: string };
      assert.equal(result.type, 'result');
      assert.equal(result.content, 'Summary: nothing to change.');
      assert.equal(result.status, 'completed');
      assert.equal(r.stdout.trim().split('\n').length, 1, 'stdout is the one JSON object (redirected to a file in CI)');
      const chats = service.requests.filter((q) => q.path.endsWith('/chat/completions'));
      assert.equal(chats[0]!.body.messages.at(-1).content, 'review this repository', '"local" is not part of the prompt');
      assert.equal(existsSync(path.join(cwd, 'made-by-ci')), false, '--restricted held');
    } finally {
      await service.close();
    }
  });

  it('after -p only the run target "local" may follow; any other word is still a second prompt (exit 2)', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const r = await runCli(['-p', 'hi', 'remote'], cwd);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /give the prompt once: .*extra argument: "remote".*only the run target "local"/);
    const help = await runCli(['--help'], cwd);
    assert.match(help.stdout, /-p <prompt> \[local\]/);
  });
});
