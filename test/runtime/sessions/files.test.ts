import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { acquireLock, lockedByOther, releaseLock } from '../../../src/runtime/sessions/lock';
import { idOfEntry, isValidSessionId } from '../../../src/runtime/sessions/paths';
import { CorruptSessionError, readSessionFile, readSessionHead, readSessionTail } from '../../../src/runtime/sessions/reader';
import { titleOf } from '../../../src/runtime/sessions/recorder';
import { listHistory } from '../../../src/runtime/sessions/history';
import { INDEX_FILE, readIndex } from '../../../src/runtime/sessions/index-file';
import { pruneSessions } from '../../../src/runtime/sessions/retention';
import { completeToolResults } from '../../../src/runtime/sessions/saved-sessions';
import { SessionFileWriter } from '../../../src/runtime/sessions/writer';
import type { MetaRecord } from '../../../src/runtime/sessions/records';
import { makeTempDir } from '../../helpers/temp-dir';

const tmp = () => makeTempDir('agentcli-sessions-');
const meta = (id: string, cwd = '/w'): MetaRecord => ({
  type: 'meta',
  version: 1,
  sessionId: id,
  cwd,
  createdAt: '2026-01-01T00:00:00.000Z',
  title: 't',
  provider: 'ggufserver',
  model: 'm',
});
const base = (count: number) => ({ at: '2026-01-01T00:00:01.000Z', count, provider: 'ggufserver', model: 'm2' });

describe('saved session files', () => {
  it('session ids: only the runtime\'s shape, never a path', () => {
    assert.ok(isValidSessionId('session_0a1b2c3d4e5f'));
    for (const bad of ['../x', 'session_../../x', 'session_', 'x.jsonl', 'session_ab/cd', '']) assert.ok(!isValidSessionId(bad), bad);
    assert.equal(idOfEntry('session_0a1b2c3d4e5f.jsonl'), 'session_0a1b2c3d4e5f');
    assert.equal(idOfEntry('session_0a1b2c3d4e5f.lock'), undefined);
  });

  it('writes, reads back, and reads the head and the last line alone', () => {
    const dir = tmp();
    const file = path.join(dir, 'session_aaaa00000001.jsonl');
    const w = SessionFileWriter.create(file, meta('session_aaaa00000001'));
    w.appendAll([
      { type: 'message', ...base(1), message: { role: 'user', content: 'hi' } },
      { type: 'error', ...base(1), code: 'provider_error', error: 'down' },
      { type: 'message', ...base(2), message: { role: 'assistant', content: 'x'.repeat(200_000) } },
    ]);
    w.close();
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const data = readSessionFile(file);
    assert.deepEqual(data.messages.map((m) => m.role), ['user', 'assistant']);
    assert.equal(data.errors[0]?.code, 'provider_error');
    assert.equal(data.tornBytes, undefined);
    assert.equal(readSessionHead(file)?.meta.sessionId, 'session_aaaa00000001');
    // The last line is larger than the first tail window: the reader reads further back.
    assert.deepEqual(readSessionTail(file, meta('x')), { messageCount: 2, provider: 'ggufserver', model: 'm2' });
  });

  it('a torn last line is skipped and reported; reopening cuts it off', () => {
    const dir = tmp();
    const file = path.join(dir, 'session_aaaa00000002.jsonl');
    const w = SessionFileWriter.create(file, meta('session_aaaa00000002'));
    w.append({ type: 'message', ...base(1), message: { role: 'user', content: 'hi' } });
    w.close();
    fs.appendFileSync(file, '{"type":"message","at":');
    const data = readSessionFile(file);
    assert.equal(data.messages.length, 1);
    assert.equal(data.tornBytes, '{"type":"message","at":'.length);
    const again = SessionFileWriter.reopen(file, data.validBytes);
    again.append({ type: 'message', ...base(2), message: { role: 'assistant', content: 'ok' } });
    again.close();
    const after = readSessionFile(file);
    assert.equal(after.tornBytes, undefined);
    assert.equal(after.messages.length, 2);
  });

  it('a bad line before the end, or a missing header, is corrupt', () => {
    const dir = tmp();
    const file = path.join(dir, 'session_aaaa00000003.jsonl');
    fs.writeFileSync(file, `${JSON.stringify(meta('session_aaaa00000003'))}\nnot json\n`);
    assert.throws(() => readSessionFile(file), CorruptSessionError);
    fs.writeFileSync(file, `{"type":"message"}\n`);
    assert.throws(() => readSessionFile(file), CorruptSessionError);
    assert.equal(readSessionHead(file), undefined);
  });

  it('a lock is held by a live process only', () => {
    const dir = tmp();
    const lock = path.join(dir, 'session_aaaa00000004.lock');
    assert.deepEqual(acquireLock(lock), { locked: true });
    assert.equal(lockedByOther(lock), false, 'our own lock');
    // A live other process (our parent shell's pid is alive) holds it:
    fs.writeFileSync(lock, `${process.ppid}\n`);
    assert.equal(lockedByOther(lock), true);
    assert.deepEqual(acquireLock(lock), { locked: false, holderPid: process.ppid });
    if (process.platform === 'linux') {
      // The same process id with another start time: a later process that got a dead holder's id does not hold it.
      fs.writeFileSync(lock, `${process.ppid} 1\n`);
      assert.equal(lockedByOther(lock), false);
    }
    // A dead process's lock is taken over.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.writeFileSync(lock, `${dead}\n`);
    assert.equal(lockedByOther(lock), false);
    assert.deepEqual(acquireLock(lock), { locked: true });
    releaseLock(lock);
    assert.equal(fs.existsSync(lock), false);
  });

  it('retention removes the oldest beyond maxCount and those older than maxAgeDays, never the kept one', () => {
    const dir = tmp();
    const now = Date.now();
    const ids = ['session_aaaa00000010', 'session_aaaa00000011', 'session_aaaa00000012', 'session_aaaa00000013'];
    ids.forEach((id, i) => {
      const f = path.join(dir, `${id}.jsonl`);
      fs.writeFileSync(f, `${JSON.stringify(meta(id))}\n`);
      const t = new Date(now - (ids.length - i) * 60_000);
      fs.utimesSync(f, t, t);
    });
    const old = path.join(dir, `${ids[3]}.jsonl`);
    const long = new Date(now - 40 * 24 * 3600_000);
    fs.utimesSync(old, long, long); // the newest by name, but 40 days old
    const removed = pruneSessions(dir, { maxCount: 2, maxAgeDays: 30 }, new Set([ids[0]!]), now);
    assert.deepEqual(removed.sort(), [ids[1], ids[3]].sort());
    assert.deepEqual(fs.readdirSync(dir).sort(), [`${ids[0]}.jsonl`, `${ids[2]}.jsonl`]);
  });

  it('the index: a listing adds sessions missing from it, ignores entries whose file is gone; retention rewrites it', () => {
    const dir = tmp();
    const ids = ['session_aaaa00000020', 'session_aaaa00000021', 'session_aaaa00000022'];
    ids.forEach((id, i) => {
      const w = SessionFileWriter.create(path.join(dir, `${id}.jsonl`), meta(id, '/w'));
      w.close();
      const t = new Date(Date.now() - (3 - i) * 60_000);
      fs.utimesSync(path.join(dir, `${id}.jsonl`), t, t);
    });
    assert.equal(fs.existsSync(path.join(dir, INDEX_FILE)), false);
    assert.deepEqual(listHistory(dir, { page: 1, pageSize: 10, cwd: '/w' }).entries.map((e) => e.sessionId), [...ids].reverse());
    assert.deepEqual([...readIndex(dir).keys()].sort(), ids);
    fs.appendFileSync(path.join(dir, INDEX_FILE), '{"type":"meta","sessionId":"session_aaaa0000'); // torn
    fs.rmSync(path.join(dir, `${ids[1]}.jsonl`));
    assert.deepEqual(listHistory(dir, { page: 1, pageSize: 10, cwd: undefined }).entries.map((e) => e.sessionId), [ids[2], ids[0]]);
    assert.deepEqual(pruneSessions(dir, { maxCount: 1, maxAgeDays: 30 }, new Set()), [ids[0]]);
    assert.deepEqual([...readIndex(dir).keys()], [ids[2]]);
  });

  it('lists the sessions of a folder also when it is reached through a symlink', () => {
    const dir = tmp();
    const real = tmp();
    const link = path.join(tmp(), 'link');
    fs.symlinkSync(real, link);
    SessionFileWriter.create(path.join(dir, 'session_aaaa00000030.jsonl'), meta('session_aaaa00000030', real)).close();
    assert.equal(listHistory(dir, { page: 1, pageSize: 5, cwd: link }).total, 1);
    assert.equal(listHistory(dir, { page: 1, pageSize: 5, cwd: tmp() }).total, 0);
  });

  it('completes tool calls that have no result, and shortens titles', () => {
    const out = completeToolResults([
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read_file', arguments: '{}' }, { id: 'b', name: 'grep', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'a', toolName: 'read_file', content: 'A' },
    ]);
    assert.deepEqual(out.map((m) => [m.role, m.toolCallId]), [['user', undefined], ['assistant', undefined], ['tool', 'a'], ['tool', 'b']]);
    assert.match(out[3]!.content, /not run/);
    assert.equal(titleOf('  a\n  b  '), 'a b');
    assert.equal(titleOf('x'.repeat(200)).length, 80);
  });
});
