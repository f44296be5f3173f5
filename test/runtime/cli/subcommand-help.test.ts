import * as assert from 'node:assert/strict';
import { main } from '../../../src/runtime/cli/main';
import { tempLayout, type TempLayout } from '../config/helpers';

describe('agentcli <subcommand> --help', () => {
  let t: TempLayout;
  beforeEach(() => {
    t = tempLayout();
  });
  afterEach(() => t.cleanup());

  const cases: Array<[string[], RegExp]> = [
    [['auto', '--help'], /^Usage: agentcli auto /],
    [['config', '--help'], /^Usage: agentcli config /],
    [['config', 'get', '-h'], /^Usage: agentcli config /],
    [['decide', '--help'], /^Usage: agentcli decide /],
    [['ggufserver', '--help'], /^Usage: agentcli ggufserver /],
    [['ggufserver', 'command', '-h'], /^Usage: agentcli ggufserver /],
    [['localrunner', '--help'], /^Usage: agentcli localrunner /],
    [['localrunner', 'status', '--help'], /^Usage: agentcli localrunner /],
  ];
  for (const [args, usage] of cases) {
    it(`${args.join(' ')} prints the usage on stdout and exits 0`, async () => {
      let out = '';
      let err = '';
      const code = await main(args, { cwd: t.cwd, home: t.home, env: {}, stdout: (s) => (out += s), stderr: (s) => (err += s) });
      assert.equal(code, 0, err);
      assert.match(out, usage);
      assert.equal(err, '');
    });
  }
});
