import assert from 'node:assert/strict';
import { parseCliArgs, USAGE } from '../../../src/runtime/cli/args';

describe('agentcli --acp: the flag', () => {
  it('is off by default and on with --acp, with the flags that shape sessions', () => {
    assert.equal(parseCliArgs([]).acp, false);
    const opts = parseCliArgs(['--acp', '--yolo', '--model', 'ggufserver/qwen', '--no-project-config']);
    assert.equal(opts.acp, true);
    assert.equal(opts.yolo, true);
    assert.equal(opts.projectConfig, false);
  });

  it('refuses what only a one-shot run or the rpc server takes, naming it', () => {
    for (const [args, clash] of [
      [['--acp', 'do', 'it'], 'a prompt'],
      [['--acp', '--mode', 'rpc'], '--mode'],
      [['--acp', '--json'], '--json'],
      [['--acp', '--patch'], '--patch'],
      [['--acp', '--resume', 'session_1'], '--resume'],
      [['--acp', '--continue'], '--continue'],
    ] as const) {
      assert.throws(() => parseCliArgs([...args]), new RegExp(`--acp cannot be combined with ${clash}`));
    }
  });

  it('is in the help', () => {
    assert.match(USAGE, /--acp\s+serve the Agent Client Protocol on stdio/);
  });
});
