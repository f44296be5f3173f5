import assert from 'node:assert/strict';
import { makeWorkspace, runCli, useStubbedRuntime } from '../../helpers/runtime-process';

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
});
