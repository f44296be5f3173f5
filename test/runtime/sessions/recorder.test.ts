import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { HistoryMessage } from '../../../src/protocol/records';
import type { EventDraft } from '../../../src/runtime/agent/host';
import { lockFile, sessionFile } from '../../../src/runtime/sessions/paths';
import { readSessionFile } from '../../../src/runtime/sessions/reader';
import { SessionRecorder, type RecordedSession } from '../../../src/runtime/sessions/recorder';
import { SessionRedactor } from '../../../src/runtime/sessions/redaction';
import { makeTempDir } from '../../helpers/temp-dir';

const ID = 'session_aaaa00000001';

function fakeSession(): RecordedSession & { history: HistoryMessage[] } {
  return { id: ID, cwd: '/w', history: [], selected: () => ({ provider: 'ggufserver', model: 'm' }), store: { pending: () => null } };
}

const start = (prompt: string): EventDraft => ({ type: 'agent_start', runId: 'run_1', prompt });
const end: EventDraft = { type: 'agent_end', runId: 'run_1', status: 'completed', text: 'hi' };

describe('session recorder: the file of a new session', () => {
  it('is made once the task that began the session ends, holding its first events in order', async () => {
    const dir = makeTempDir('agentcli-recorder-');
    const recorder = new SessionRecorder({ dir, redactor: new SessionRedactor({}, {}), warn: (l) => assert.fail(l) });
    const session = fakeSession();
    session.history.push({ role: 'user', content: 'hello' });
    recorder.observe(session, start('hello'));
    session.history.push({ role: 'assistant', content: 'hi' });
    recorder.observe(session, end);
    assert.equal(fs.existsSync(path.join(dir, `${ID}.jsonl`)), false, 'not in the task that began the session (its first request goes first)');
    await new Promise((resolve) => setImmediate(resolve));
    const saved = readSessionFile(sessionFile(dir, ID));
    assert.deepEqual(saved.messages, session.history);
    assert.equal(saved.meta.title, 'hello');
    assert.ok(fs.existsSync(lockFile(dir, ID)), 'the session is locked while it is recorded');
    session.history.push({ role: 'user', content: 'again' });
    recorder.observe(session, start('again'));
    assert.equal(readSessionFile(sessionFile(dir, ID)).messages.length, 3, 'later events are written as they come');
    recorder.close();
    assert.equal(fs.existsSync(lockFile(dir, ID)), false);
  });

  it('is made at once when the recorder closes before that', () => {
    const dir = makeTempDir('agentcli-recorder-');
    const recorder = new SessionRecorder({ dir, redactor: new SessionRedactor({}, {}), warn: (l) => assert.fail(l) });
    const session = fakeSession();
    session.history.push({ role: 'user', content: 'hello' });
    recorder.observe(session, start('hello'));
    recorder.close();
    assert.deepEqual(readSessionFile(sessionFile(dir, ID)).messages, session.history);
    assert.equal(fs.existsSync(lockFile(dir, ID)), false, 'closed: the lock is released');
  });

  it('is made by a process that exits in that task, and its lock is not left behind', () => {
    const dir = makeTempDir('agentcli-recorder-');
    const script = `
      const { SessionRecorder } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/runtime/sessions/recorder'))});
      const { SessionRedactor } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/runtime/sessions/redaction'))});
      const recorder = new SessionRecorder({ dir: ${JSON.stringify(dir)}, redactor: new SessionRedactor({}, {}), warn: (l) => console.error(l) });
      const session = { id: ${JSON.stringify(ID)}, cwd: '/w', history: [{ role: 'user', content: 'hello' }], selected: () => ({ provider: 'ggufserver', model: 'm' }), store: { pending: () => null } };
      recorder.observe(session, { type: 'agent_start', runId: 'run_1', prompt: 'hello' });
      process.exit(3);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 3, run.stderr);
    assert.equal(run.stderr, '');
    assert.deepEqual(readSessionFile(sessionFile(dir, ID)).messages, [{ role: 'user', content: 'hello' }]);
    assert.equal(fs.existsSync(lockFile(dir, ID)), false);
  });
});
