import assert from 'node:assert/strict';
import { useTmuxSession } from '../cli/interactive/tmux-terminal';

const PROMPT = /^›( |$)/m;

describe('agentcli interactive session: sandbox notice (in a pseudo-terminal)', function () {
  const s = useTmuxSession(this);

  it('says at the start that commands will not run, with the fix, when bubblewrap cannot run', async () => {
    const t = s.open([], {}, { NO_COLOR: '1', AGENTCLI_BWRAP: '/nonexistent/bwrap' });
    const screen = (await t.waitFor(PROMPT)).replace(/\n/g, ' ').replace(/ +/g, ' ');
    assert.match(screen, /sandbox unavailable: commands will not run: they run only in a sandbox, and it cannot start: bubblewrap \(\/nonexistent\/bwrap\) is not installed/);
    assert.match(screen, /apt-get install bubblewrap/);
    assert.match(screen, /agentcli config set sandbox\.mode off/);
  });

  it('says nothing about the sandbox when it works', async () => {
    const t = s.open([], {}, { NO_COLOR: '1' });
    const screen = await t.waitFor(PROMPT);
    assert.doesNotMatch(screen, /sandbox/);
  });
});
