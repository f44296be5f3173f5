import assert from 'node:assert/strict';
import { z } from 'zod';
import type { AgentEvent } from '../../../src/protocol';
import type { EventDraft, RunHost } from '../../../src/runtime/agent/host';
import { PendingRequests } from '../../../src/runtime/agent/pending-requests';
import { executeToolCall, type ToolExecutionDeps } from '../../../src/runtime/agent/tool-executor';
import { DirectoryGrants } from '../../../src/runtime/permissions/directory-grants';
import { PermissionPolicy } from '../../../src/runtime/permissions/policy';
import { SecretMasker } from '../../../src/runtime/secrets/masker';
import type { ToolContext, ToolDefinition } from '../../../src/runtime/tools/types';
import { DirectFiles } from '../../../src/runtime/workspace/files';
import { tempDir } from '../tools/helpers';

const KEY = 'sk-executor-canary-123456';

/** A command-like tool that records its context and streams its output in the given chunks. */
function fakeTool(chunks: string[], seen: ToolContext[]): ToolDefinition {
  return {
    name: 'fake_command',
    description: 'test',
    inputSchema: z.object({ command: z.string() }),
    readOnly: false,
    permissionTarget: (args: { command: string }) => ({ ruleTool: 'Bash', command: args.command, description: `Run: ${args.command}` }),
    async run(_args, ctx) {
      seen.push(ctx);
      for (const chunk of chunks) ctx.onOutput(chunk);
      return { output: chunks.join('') };
    },
  } as ToolDefinition;
}

describe('tool executor: secrets and the person-approved flag', () => {
  let root: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir: root, cleanup } = tempDir()));
  afterEach(() => cleanup());

  function setup(opts: { interactive: boolean; mode: 'interactive' | 'unrestricted'; allow?: string[]; chunks: string[] }) {
    const seen: ToolContext[] = [];
    const events: EventDraft[] = [];
    const pending = new PendingRequests();
    const grants = new DirectoryGrants([]);
    const tool = fakeTool(opts.chunks, seen);
    const host: RunHost = { interactive: opts.interactive, emit: () => undefined };
    const deps: ToolExecutionDeps = {
      cwd: root,
      files: new DirectFiles(root, () => undefined),
      tools: new Map([[tool.name, tool]]),
      policy: new PermissionPolicy({ cwd: root, rules: { allow: opts.allow ?? [], ask: [], deny: [] }, mode: opts.mode, directories: grants }),
      grants,
      pending,
      host,
      emit: (d) => {
        events.push(d);
        if (d.type === 'permission_request') setImmediate(() => pending.answer(d.requestId, 'permission', { allowed: true, scope: 'session' }));
      },
      outputDir: root,
      projectConfigFile: `${root}/.agentcli/config.json`,
      batchMode: false,
      planMode: false,
      permissionMode: opts.mode,
      secrets: new SecretMasker([KEY]),
    };
    const scope = { runId: 'r', turnId: 't', signal: new AbortController().signal };
    const call = (id: string) => executeToolCall({ id, name: 'fake_command', arguments: JSON.stringify({ command: 'echo hi' }) }, deps, scope);
    return { seen, events, call };
  }

  const updates = (events: EventDraft[]) => events.flatMap((e) => (e.type === 'tool_update' ? [e.output] : []));

  it('masks the result and the streamed updates, also a key split across chunks', async () => {
    const { events, call } = setup({ interactive: false, mode: 'unrestricted', chunks: ['one sk-exec', `utor-canary-123456 two ${KEY.slice(0, 5)}`, KEY.slice(5)] });
    const outcome = await call('c1');
    assert.equal(outcome.output, 'one [redacted] two [redacted]');
    assert.equal(updates(events).join(''), 'one [redacted] two [redacted]');
    assert.ok(!JSON.stringify(events).includes(KEY));
    const end = events.find((e): e is Extract<AgentEvent, { type: 'tool_end' }> => e.type === 'tool_end');
    assert.equal(end?.output, 'one [redacted] two [redacted]');
  });

  it('a call allowed by the mode or a rule is not person-approved; one a person answered is, for that call only', async () => {
    const yolo = setup({ interactive: false, mode: 'unrestricted', chunks: [] });
    await yolo.call('c1');
    assert.equal(yolo.seen[0]?.approvedByPerson, false);
    const rule = setup({ interactive: true, mode: 'interactive', allow: ['Bash(*)'], chunks: [] });
    await rule.call('c1');
    assert.equal(rule.seen[0]?.approvedByPerson, false);
    const asked = setup({ interactive: true, mode: 'interactive', chunks: [] });
    await asked.call('c1');
    assert.ok(asked.events.some((e) => e.type === 'permission_request'));
    assert.equal(asked.seen[0]?.approvedByPerson, true);
    await asked.call('c2'); // now allowed by the session rule the answer added: nobody looked at this one
    assert.equal(asked.events.filter((e) => e.type === 'permission_request').length, 1);
    assert.equal(asked.seen[1]?.approvedByPerson, false);
  });
});
