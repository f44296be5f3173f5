import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useTmuxSession } from './tmux-terminal';

const PROMPT = /^›( |$)/m;

describe('agentcli interactive session: flags and notices (in a pseudo-terminal)', function () {
  const s = useTmuxSession(this);
  const open = (args: string[], files: Record<string, string> = {}) => s.open(args, files, { NO_COLOR: '1' });

  it('--yolo applies a run’s batch without the review question and prints the per-file results', async () => {
    const t = open(['--yolo'], { 'a.txt': 'old\n' });
    await t.waitFor(PROMPT);
    s.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'a.txt', content: 'new\n' } },
          { name: 'write_file', arguments: { path: 'b.txt', content: 'bee\n' } },
        ],
      },
      { text: 'wrote both' },
    );
    t.line('write both');
    const screen = await t.waitFor(/✓ applied +a\.txt\n[\s\S]*✓ applied +b\.txt\n[\s\S]*›( |$)/);
    assert.match(screen, /Applying 2 proposed file change\(s\) without review \(unrestricted mode, --yolo\)/);
    assert.doesNotMatch(screen, /\[a\]ccept all/);
    assert.equal(readFileSync(path.join(s.cwd, 'a.txt'), 'utf8'), 'new\n');
    assert.equal(readFileSync(path.join(s.cwd, 'b.txt'), 'utf8'), 'bee\n');
  });

  for (const [flag, why] of [
    ['--json', 'prints no JSON'],
    ['--patch', 'always reviews edits as a batch'],
  ] as const) {
    it(`${flag} without a prompt in a terminal is a usage error (exit 2), not silently dropped`, async () => {
      const t = open([flag]);
      const screen = await t.waitFor(/__EXIT \d+__/);
      assert.equal(t.exitCode(), 2);
      assert.match(screen.replace(/\n/g, ''), new RegExp(`agentcli: ${flag} needs a prompt: -p <text> .*${why}`));
    });
  }

  it('answering [a]lways says which rule was saved to which file', async () => {
    const t = open([]);
    await t.waitFor(PROMPT);
    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] }, { text: 'echoed' });
    t.line('echo');
    await t.waitFor(/alternati\[v\]e ›$/);
    t.line('a');
    const screen = await t.waitFor(/^echoed$/m);
    assert.match(screen, /saved rule Bash\(echo:\*\) to \.agentcli\/config\.json/);
    const config = JSON.parse(readFileSync(path.join(s.cwd, '.agentcli', 'config.json'), 'utf8')) as { permissions?: { allow?: string[] } };
    assert.deepEqual(config.permissions?.allow, ['Bash(echo:*)']);
  });
});
