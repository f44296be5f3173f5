/**
 * Browser handoff against real runtime processes (spec 001 §4.3, §5.8): the token and its records, the page server's
 * refusals (reused, expired, forged, foreign origin or host), and a takeover by a second runtime of the same user.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, testEnv, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';
import { httpRequest, tokenOf } from './http';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rtRuns = (rt: RuntimeUnderTest) => rt.events.filter((e) => e.type === 'agent_end').length;

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('browser handoff (real runtime)', function () {
  this.timeout(40_000);
  const t = useStubbedRuntime();

  it('creates a url on 127.0.0.1 with a token stored only as a hash, in 0700/0600 files', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv();
    const rt = await t.start(cwd, { env });
    const { sessionId } = await rt.request('getState', {});
    const h = await rt.request('createBrowserHandoff', {});
    assert.match(h.url, /^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
    assert.equal(tokenOf(h.url), h.token);
    assert.equal(h.sessionId, sessionId);
    const ttl = Date.parse(h.expiresAt) - Date.now();
    assert.ok(ttl > 240_000 && ttl <= 300_000, `default lifetime of 5 minutes (got ${ttl} ms)`);
    const dir = path.join(env.HOME!, '.agentcli', 'state', 'handoff');
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const files = filesUnder(env.HOME!);
    for (const f of files) assert.ok(!readFileSync(f, 'utf8').includes(h.token), `${f} holds the token`);
    const records = readdirSync(dir);
    assert.equal(records.length, 1);
    for (const r of records) assert.equal(statSync(path.join(dir, r)).mode & 0o777, 0o600);
    const record = JSON.parse(readFileSync(path.join(dir, records[0]!), 'utf8')) as Record<string, unknown>;
    assert.equal(record.sessionId, sessionId);
    assert.equal(record.cwd, cwd);
    assert.equal(record.pid, rt.proc.pid);
    assert.match(String(record.tokenHash), /^[0-9a-f]{64}$/);
    // A lifetime over the limit is refused with the field named.
    await assert.rejects(rt.request('createBrowserHandoff', { ttlSeconds: 999_999 }), /ttlSeconds/);
  });

  it('the page: strict CSP with a nonce; the token works once; reused, forged and expired tokens and foreign origins are refused', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const rt = await t.start(cwd);
    const h = await rt.request('createBrowserHandoff', {});
    const origin = new URL(h.url).origin;
    const page = await httpRequest(`${origin}/`);
    assert.equal(page.status, 200);
    const csp = String(page.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && page.body.includes(`<script nonce="${nonce}">`), csp);
    assert.match(csp, /default-src 'none'/);
    assert.ok(!page.body.includes(h.token), 'the page itself carries no token');

    // Without a cookie nothing of the session is readable or drivable.
    const noCookie = await httpRequest(`${origin}/api/transcript`);
    assert.equal(noCookie.status, 401);
    assert.equal(noCookie.json().reason, 'no_session');
    assert.equal((await httpRequest(`${origin}/api/prompt`, { body: { message: 'hi' } })).status, 401);

    // A foreign origin and a rebinding host name are refused before anything else.
    const foreign = await httpRequest(`${origin}/api/attach`, { body: { token: h.token }, headers: { origin: 'http://evil.example' } });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json().reason, 'origin');
    const rebound = await httpRequest(`${origin}/`, { headers: { host: `attacker.example:${new URL(origin).port}` } });
    assert.equal(rebound.status, 403);
    assert.equal(rebound.json().reason, 'host');

    const forged = await httpRequest(`${origin}/api/attach`, { body: { token: 'A'.repeat(43) }, headers: { origin } });
    assert.equal(forged.status, 401);
    assert.equal(forged.json().reason, 'unknown');

    const ok = await httpRequest(`${origin}/api/attach`, { body: { token: h.token }, headers: { origin } });
    assert.equal(ok.status, 200, ok.body);
    const cookie = String(ok.headers['set-cookie']);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    const transcript = await httpRequest(`${origin}/api/transcript`, { headers: { cookie: cookie.split(';')[0]! } });
    assert.equal(transcript.status, 200);
    assert.equal(transcript.json().sessionId, h.sessionId);

    const reused = await httpRequest(`${origin}/api/attach`, { body: { token: h.token }, headers: { origin } });
    assert.equal(reused.status, 410);
    assert.equal(reused.json().reason, 'used');
    assert.match(String(reused.json().message), /already used/);

    const short = await rt.request('createBrowserHandoff', { ttlSeconds: 1 });
    await sleep(1200);
    const expired = await httpRequest(`${origin}/api/attach`, { body: { token: short.token }, headers: { origin } });
    assert.equal(expired.status, 410);
    assert.equal(expired.json().reason, 'expired');
  });

  it('a second runtime of the same user takes the session over; the first releases it and starts anew', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv();
    t.stub.enqueue({ text: 'first answer' });
    const terminal = await t.start(cwd, { env });
    await terminal.request('prompt', { message: 'remember the word pelican' });
    await terminal.waitForEvent('agent_end');
    const { sessionId } = await terminal.request('getState', {});
    const h = await terminal.request('createBrowserHandoff', {});

    const editor = await t.start(cwd, { env });
    const forged = await editor.request('attachBrowserHandoff', { token: 'B'.repeat(43) });
    assert.deepEqual([forged.attached, !forged.attached && forged.reason], [false, 'unknown']);
    const other = await t.start(makeWorkspace({}, t.stub.origin), { env });
    const elsewhere = await other.request('attachBrowserHandoff', { token: h.token });
    assert.deepEqual([elsewhere.attached, !elsewhere.attached && elsewhere.reason], [false, 'other_workspace']);

    // A token of another runtime is foreign to this runtime's page; a page attached to the holder is cut off at takeover.
    const editorPage = new URL((await editor.request('createBrowserHandoff', {})).url).origin;
    const foreignToken = await httpRequest(`${editorPage}/api/attach`, { body: { token: h.token }, headers: { origin: editorPage } });
    assert.deepEqual([foreignToken.status, foreignToken.json().reason], [401, 'unknown']);
    const pageToken = (await terminal.request('createBrowserHandoff', {})).token;
    const terminalPage = new URL(h.url).origin;
    const pageCookie = String((await httpRequest(`${terminalPage}/api/attach`, { body: { token: pageToken } })).headers['set-cookie']).split(';')[0]!;
    assert.equal((await httpRequest(`${terminalPage}/api/transcript`, { headers: { cookie: pageCookie } })).status, 200);

    const attached = await editor.request('attachBrowserHandoff', { token: h.token });
    assert.deepEqual(attached, { attached: true, sessionId, messageCount: 2 });
    assert.notEqual((await terminal.request('getState', {})).sessionId, sessionId, 'the terminal runtime moved to a new session');
    assert.equal((await httpRequest(`${terminalPage}/api/transcript`, { headers: { cookie: pageCookie } })).status, 401);
    // The editor's next prompt carries the handed-off conversation.
    t.stub.enqueue({ text: 'pelican' });
    await editor.request('prompt', { message: 'which word?' });
    await editor.waitForEvent('agent_end');
    const sent = JSON.stringify(t.stub.requests.at(-1)!.body);
    assert.match(sent, /remember the word pelican/);

    const again = await editor.request('attachBrowserHandoff', { token: h.token });
    assert.deepEqual([again.attached, !again.attached && again.reason], [false, 'used']);
  });

  it('a holder that was killed holds nothing: the token is claimed by the taker', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv();
    t.stub.enqueue({ text: 'ok' });
    const holder = await t.start(cwd, { env });
    await holder.request('prompt', { message: 'before the crash' });
    await holder.waitForEvent('agent_end');
    const h = await holder.request('createBrowserHandoff', {});
    const exited = new Promise((r) => holder.proc.once('exit', r));
    holder.proc.kill('SIGKILL');
    await exited;
    const taker = await t.start(cwd, { env });
    const taken = await taker.request('attachBrowserHandoff', { token: h.token });
    assert.deepEqual(taken, { attached: true, sessionId: h.sessionId, messageCount: 2 });
    const again = await (await t.start(cwd, { env })).request('attachBrowserHandoff', { token: h.token });
    assert.equal(!again.attached && again.reason, 'used');
  });

  it('a takeover is refused while the holder runs, and the token stays usable; attachLatest picks the newest', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { permissions: { ask: ['Bash(echo handoff-wait)'] } });
    const env = testEnv();
    t.stub.enqueue({ text: 'one' }, { text: 'two' });
    const a = await t.start(cwd, { env });
    await a.request('prompt', { message: 'session A' });
    await a.waitForEvent('agent_end');
    const b = await t.start(cwd, { env });
    await b.request('prompt', { message: 'session B' });
    await b.waitForEvent('agent_end');
    const older = await a.request('createBrowserHandoff', {});
    await sleep(20);
    const newer = await b.request('createBrowserHandoff', {});

    // B is busy (waiting for a permission answer): its handoff is not released, and not used up.
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo handoff-wait' } }] }, { text: 'done' });
    await b.request('prompt', { message: 'run it' });
    const asked = await b.waitForEvent('permission_request');
    const c = await t.start(cwd, { env });
    const busy = await c.request('attachLatestBrowserHandoff', {});
    assert.deepEqual([busy.attached, !busy.attached && busy.reason], [false, 'busy']);
    assert.match(!busy.attached ? busy.message : '', /run is active/);
    await b.request('permissionResponse', { requestId: asked.requestId, allowed: false });
    await b.waitForEvent('agent_end', (e) => e.runId !== undefined && rtRuns(b) === 2);
    while ((await b.request('getState', {})).status !== 'idle') await sleep(20); // the run is over once its agent_end is sent

    const latest = await c.request('attachLatestBrowserHandoff', {});
    assert.equal(latest.attached, true);
    assert.equal(latest.attached && latest.sessionId, newer.sessionId);
    const next = await c.request('attachLatestBrowserHandoff', {});
    assert.equal(next.attached && next.sessionId, older.sessionId);
    const none = await c.request('attachLatestBrowserHandoff', {});
    assert.deepEqual([none.attached, !none.attached && none.reason], [false, 'unknown']);
  });
});
