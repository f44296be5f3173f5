import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../../../src/protocol';
import { loadConfig } from '../../../src/runtime/config/load';
import { NotificationTracker } from '../../../src/runtime/hooks/notifications';
import { runHookCommand } from '../../../src/runtime/hooks/run-hook';
import { withRetries } from '../../../src/runtime/providers/retry';
import { ProviderError, type RateLimitInfo } from '../../../src/runtime/providers/types';
import { CommandSandbox } from '../../../src/runtime/sandbox/command-sandbox';
import { applyEvent, createTranscript } from '../../../src/shared/chat/model/transcriptReducer';

const tmp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

describe('hooks: notifications from events', () => {
  it('tool_end becomes after_tool or tool_failed with the arguments its tool_start had', () => {
    const tracker = new NotificationTracker();
    const ids = { runId: 'r', turnId: 't', toolCallId: 'c1', toolName: 'read_file' };
    assert.equal(tracker.fromEvent({ type: 'tool_start', ...ids, args: { path: 'a' } }), undefined);
    const ok = tracker.fromEvent({ type: 'tool_end', ...ids, durationMs: 1, success: true, output: 'A' });
    assert.deepEqual(ok, { name: 'after_tool', toolName: 'read_file', fields: { ...ids, args: { path: 'a' }, durationMs: 1, output: 'A' } });
    tracker.fromEvent({ type: 'tool_start', ...ids, toolCallId: 'c2', args: { path: 'b' } });
    const failed = tracker.fromEvent({ type: 'tool_end', ...ids, toolCallId: 'c2', durationMs: 2, success: false, error: 'no such file' });
    assert.equal(failed?.name, 'tool_failed');
    assert.deepEqual(failed?.fields.args, { path: 'b' });
    assert.equal(failed?.fields.error, 'no such file');
  });

  it('permission_decided names the tool its request was for', () => {
    const tracker = new NotificationTracker();
    const base = { runId: 'r', turnId: 't', requestId: 'p1' };
    const asked = tracker.fromEvent({
      type: 'permission_request',
      ...base,
      toolCallId: 'c',
      tool: 'run_command',
      description: 'run ls',
      command: 'ls',
      suggestedRules: [],
      choices: ['once', 'deny'],
    });
    assert.equal(asked?.name, 'permission_asked');
    const decided = tracker.fromEvent({ type: 'permission_resolved', ...base, outcome: 'denied' });
    assert.deepEqual(decided, { name: 'permission_decided', toolName: 'run_command', fields: { ...base, toolName: 'run_command', outcome: 'denied' } });
  });

  it('streaming and other events raise no notification', () => {
    const tracker = new NotificationTracker();
    assert.equal(tracker.fromEvent({ type: 'message_update', runId: 'r', turnId: 't', messageId: 'm', delta: 'x' }), undefined);
    assert.equal(tracker.fromEvent({ type: 'tools_changed', reason: 'x', tools: [] }), undefined);
  });
});

describe('hooks: running one hook command', () => {
  const cwd = tmp('agentcli-hook-run-');
  const sandbox = new CommandSandbox({ settings: { mode: 'off', network: false }, workspace: cwd });

  it('passes the input on stdin and keeps stdout and stderr apart, with the hook variables set', async () => {
    const r = await runHookCommand({
      command: 'read -r line; echo "out:$line:$AGENTCLI_HOOK_EVENT"; echo "err:$line" >&2; exit 4',
      input: 'hello\n',
      cwd,
      timeoutMs: 10_000,
      sandbox,
      env: { AGENTCLI_HOOK_EVENT: 'turn_end' },
    });
    assert.equal(r.exitCode, 4);
    assert.equal(r.stdout, 'out:hello:turn_end\n');
    assert.equal(r.stderr, 'err:hello\n');
    assert.equal(r.error, undefined);
  });

  it('stops a hook at its timeout and says so', async () => {
    const r = await runHookCommand({ command: 'sleep 20', input: '', cwd, timeoutMs: 200, sandbox, env: {} });
    assert.equal(r.exitCode, null);
    assert.match(String(r.error), /timed out after 200 ms/);
  });

  it('gives the hook no secrets from the environment', async () => {
    const env = new CommandSandbox({ settings: { mode: 'off', network: false }, workspace: cwd, env: { PATH: process.env.PATH, SERVICE_API_KEY: 'sk-test-secret', GITHUB_TOKEN: 'ghp_x', PLAIN: 'yes' } });
    const r = await runHookCommand({ command: 'echo "[$SERVICE_API_KEY][$GITHUB_TOKEN][$PLAIN]"', input: '', cwd, timeoutMs: 10_000, sandbox: env, env: {} });
    assert.equal(r.stdout, '[][][yes]\n');
  });
});

describe('hooks: config', () => {
  it('user and project hooks of one notification both run (the lists are joined)', () => {
    const home = tmp('agentcli-hook-home-');
    const cwd = tmp('agentcli-hook-cwd-');
    mkdirSync(path.join(home, '.agentcli'));
    mkdirSync(path.join(cwd, '.agentcli'));
    writeFileSync(path.join(home, '.agentcli', 'config.json'), JSON.stringify({ hooks: { turn_end: [{ command: 'user-hook' }] } }));
    writeFileSync(path.join(cwd, '.agentcli', 'config.json'), JSON.stringify({ hooks: { turn_end: [{ command: 'project-hook', timeoutMs: 500 }] } }));
    const { config } = loadConfig({ cwd, home, env: {} });
    assert.deepEqual(config.hooks.turn_end?.map((h) => h.command), ['user-hook', 'project-hook']);
    assert.deepEqual(loadConfig({ cwd, home, env: {}, projectConfig: false }).config.hooks.turn_end?.map((h) => h.command), ['user-hook']);
  });

  it('a bad hook is refused with its dotted key', () => {
    const home = tmp('agentcli-hook-home-');
    const cwd = tmp('agentcli-hook-cwd-');
    mkdirSync(path.join(cwd, '.agentcli'));
    writeFileSync(path.join(cwd, '.agentcli', 'config.json'), JSON.stringify({ hooks: { before_tool: [{ command: 'x', timeoutMs: -1 }] } }));
    assert.throws(() => loadConfig({ cwd, home, env: {} }), /hooks\.before_tool\[0\]\.timeoutMs.*positive integer of milliseconds/);
  });
});

describe('rate limits: withRetries reports throttled attempts', () => {
  it('tells each 429 with the wait, and the last one with willRetry false', async () => {
    const seen: RateLimitInfo[] = [];
    const throttled = () => new ProviderError('rate_limited', 'slow down', 'wait', 429, 5);
    await assert.rejects(
      withRetries(() => Promise.reject(throttled()), () => true, { maxRetries: 2, onRateLimited: (i) => seen.push(i) }),
      /gave up after 3 attempts/,
    );
    assert.deepEqual(seen, [
      { attempt: 1, retryAfterMs: 5, willRetry: true },
      { attempt: 2, retryAfterMs: 5, willRetry: true },
      { attempt: 3, retryAfterMs: 5, willRetry: false },
    ]);
  });

  it('does not report a server error as a rate limit', async () => {
    const seen: RateLimitInfo[] = [];
    let calls = 0;
    const result = await withRetries(
      () => (++calls === 1 ? Promise.reject(new ProviderError('provider_error', 'boom', 'retry', 503, 1)) : Promise.resolve('ok')),
      () => true,
      { onRateLimited: (i) => seen.push(i) },
    );
    assert.equal(result, 'ok');
    assert.deepEqual(seen, []);
  });
});

describe('the chat transcript and the new events', () => {
  it('hook, yolo_changed and rate_limited events change nothing in the transcript', () => {
    const model = createTranscript();
    const events: AgentEvent[] = [
      { type: 'hook', sessionId: 's', name: 'before_tool', source: 'config', command: 'x', exitCode: 0, durationMs: 1, blocked: false },
      { type: 'yolo_changed', sessionId: 's', active: false, reason: 'expired' },
      { type: 'rate_limited', sessionId: 's', provider: 'ggufserver', retryAfterMs: 10, attempt: 1, willRetry: true },
    ];
    for (const e of events) assert.deepEqual(applyEvent(model, e), { reset: false, ids: [] });
  });
});
