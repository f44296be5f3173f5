/**
 * A terminal session continued elsewhere: `/handoff` in the interactive CLI prints a link; the page opens; another
 * runtime of the same user (the editor's) takes the session over with attachLatestBrowserHandoff, and the terminal says so.
 */
import assert from 'node:assert/strict';
import { startRuntime, testEnv } from '../../helpers/runtime-process';
import { makeTempDir } from '../../helpers/temp-dir';
import { useTmuxSession } from '../cli/interactive/tmux-terminal';
import { httpRequest } from './http';

const PROMPT = /^›( |$)/m;

describe('/handoff in the interactive session (in a pseudo-terminal)', function () {
  const s = useTmuxSession(this);

  it('prints a single-use link to this session, and the editor takes the session over', async () => {
    const home = makeTempDir('agentcli-home-');
    const t = s.open([], {}, { HOME: home, NO_COLOR: '1' });
    await t.waitFor(PROMPT);
    s.stub.enqueue({ text: 'noted: the word is heron' });
    t.line('remember the word heron');
    await t.waitFor(/noted: the word is heron/);
    t.line('/handoff 0');
    await t.waitFor(/\/handoff takes the link's lifetime in whole minutes/);
    t.line('/handoff');
    const screen = await t.waitFor(/continue in the editor/);
    const url = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(screen)?.[0];
    assert.ok(url, screen);
    const page = await httpRequest(new URL(url).origin + '/');
    assert.equal(page.status, 200);

    const editor = await startRuntime(s.cwd, { env: testEnv({ HOME: home }) });
    try {
      const taken = await editor.request('attachLatestBrowserHandoff', {});
      assert.equal(taken.attached, true, JSON.stringify(taken));
      assert.equal(taken.attached && taken.messageCount, 2);
      await t.waitFor(/was taken over by another window/);
      // The token was used by the takeover: the link no longer attaches.
      const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token');
      const reused = await httpRequest(new URL(url).origin + '/api/attach', { body: { token } });
      assert.equal(reused.json().reason, 'used');
    } finally {
      await editor.close();
    }
    t.line('/exit');
    await t.waitFor(/__EXIT \d+__/);
    assert.equal(t.exitCode(), 0);
  });
});
