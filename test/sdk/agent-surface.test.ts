import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { methodNames } from '../../src/protocol/methods';
import { Agent, RuntimeClient, type PermissionRequest } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

/** The TypeScript names of spec 001 §4.3 "Runtime control operations (all CLI-backed SDKs)". */
const SPEC_4_3_OPERATIONS = [
  'reset',
  'createBrowserHandoff',
  'attachBrowserHandoff',
  'attachLatestBrowserHandoff',
  'startAutomode',
  'getAutomodeStatus',
  'pauseAutomode',
  'resumeAutomode',
  'cancelAutomode',
  'getAutomodeLog',
  'acknowledgePermission',
  'respondToDirectoryAccess',
  'acknowledgeDirectoryAccess',
  'decideChanges',
  'getHistory',
  'getSession',
  'attachSession',
  'setYolo',
  'setYoloCompat',
  'setEditorMcpTools',
  'respondToMcpInvocation',
  'getLearningRecommendations',
  'updateLearnedSkills',
  'generateSkill',
  'getToolsRegistry',
  'setContextCompact',
];
/** SDK-side aliases of a runtime method (spec 001 §4.3: "compatibility alias of the above"). */
const ALIASES: Record<string, string> = { setYoloCompat: 'setYolo' };
/** Operations covered by other Agent calls: `initialize` by `Agent.create`, `prompt` by `send`/`run`. */
const COVERED_ELSEWHERE = new Set(['initialize', 'prompt']);

const hasMethod = (proto: object, name: string) => typeof (proto as Record<string, unknown>)[name] === 'function';

// Spec 001 §4.3: "Objects that carry the full surface: TypeScript and Python on Agent, the SDK client and the RPC client."
describe('sdk Agent carries the full runtime surface (spec 001 §4.3)', function () {
  const t = useStubAndAgent(this);

  it('every operation the runtime implements is a method of Agent and of RuntimeClient', () => {
    const missing = methodNames
      .filter((m) => !COVERED_ELSEWHERE.has(m))
      .flatMap((m) => [hasMethod(Agent.prototype, m) ? [] : [`Agent.${m}`], hasMethod(RuntimeClient.prototype, m) ? [] : [`RuntimeClient.${m}`]].flat());
    assert.deepEqual(missing, []);
  });

  it('each §4.3 operation is either implemented on Agent and the client, or absent from both and listed as not built in the README', () => {
    const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const notBuilt = readme.slice(readme.indexOf('## Limits and what is not built yet'));
    const runtime = new Set<string>(methodNames);
    for (const op of SPEC_4_3_OPERATIONS) {
      const built = runtime.has(ALIASES[op] ?? op);
      assert.equal(hasMethod(Agent.prototype, op), built, `Agent.${op}: ${built ? 'missing' : 'present though the runtime has no such operation'}`);
      assert.equal(hasMethod(RuntimeClient.prototype, op), built, `RuntimeClient.${op}`);
      if (!built) assert.ok(notBuilt.includes(`\`${op}\``), `the README's "not built" list names \`${op}\``);
    }
  });

  it('the operations work through Agent against the real runtime', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    // An ask rule, so the command asks whatever else would allow it (a sandbox, a safe-command list).
    const config = { ggufserver: { baseUrl: t.stub.origin }, permissions: { ask: ['Bash(echo surface-ok)'] } };
    writeFileSync(path.join(cwd, '.agentcli', 'config.json'), JSON.stringify(config));
    const requests: PermissionRequest[] = [];
    const agent = await t.create(
      testAgentOptions(cwd, {
        permissionMode: 'interactive',
        onPermissionRequest: async (r) => {
          requests.push(r);
          await agent.acknowledgePermission(r.requestId);
          assert.equal((await agent.getState()).pendingPermissions[0]?.acknowledged, true);
          await agent.permissionResponse({ requestId: r.requestId, allowed: true, scope: 'once' });
          return undefined;
        },
      }),
    );
    // Yolo on and off, through the canonical setter and its alias.
    assert.equal((await agent.setYolo({ enabled: true, timeoutMinutes: 5 })).yolo.active, true);
    assert.equal((await agent.getState()).permissionMode, 'unrestricted');
    assert.equal((await agent.setYoloCompat({ enabled: false })).yolo.active, false);
    assert.equal((await agent.getState()).permissionMode, 'interactive');
    // A permission acknowledged, then answered; an edit left undecided, then decided through the agent.
    t.stub.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo surface-ok' } }, { name: 'write_file', arguments: { path: 'a.txt', content: 'new\n' } }] },
      { text: 'done' },
    );
    const first = await agent.run('go');
    assert.equal(requests.length, 1);
    assert.equal(first.steps[0]!.toolResults[0]!.success, true);
    assert.deepEqual(first.changes.map((c) => c.outcome), ['undecided']);
    const contents = await agent.getChangeContents({ batchId: first.changes[0]!.batchId });
    assert.deepEqual(contents.contents.map((c) => [c.path, c.originalContent, c.proposedContent]), [['a.txt', 'old\n', 'new\n']]);
    const decided = await agent.decideChanges({ batchId: first.changes[0]!.batchId, decision: 'accept_all' });
    assert.deepEqual(decided.results.map((r) => r.status), ['applied']);
    assert.equal(readFileSync(path.join(cwd, 'a.txt'), 'utf8'), 'new\n');
    // Editor-hosted tools: registered, invoked by the model, answered once.
    assert.deepEqual((await agent.setEditorMcpTools([{ name: 'diagnostics', description: 'Problems', inputSchema: { type: 'object' } }])).registered, [
      'editor_diagnostics',
    ]);
    t.stub.enqueue({ toolCalls: [{ name: 'editor_diagnostics', arguments: {} }] }, { text: 'one error' });
    const run = agent.send('what is wrong');
    for await (const e of run.stream()) {
      if (e.type === 'mcp_invocation') await agent.respondToMcpInvocation({ requestId: e.requestId, success: true, result: 'x.ts:1 error' });
    }
    assert.equal((await run.wait()).text, 'one error');
    assert.equal(t.stub.requests.at(-1)!.body.messages.find((m: { role: string; content: string }) => m.role === 'tool' && m.content === 'x.ts:1 error')?.role, 'tool');
    // Reading state, models, context; configuring; abort with nothing running.
    assert.ok((await agent.getContextUsage()).messageCount > 0);
    t.stub.setModels(['m-one']);
    assert.deepEqual((await agent.listModels()).models.map((m) => m.id), ['m-one']);
    assert.deepEqual(await agent.configure({ ggufserver: { model: 'm-one' } }), { provider: 'ggufserver', model: 'm-one' });
    assert.deepEqual(await agent.abort(), { aborted: false });
    assert.ok((await agent.reset()).sessionId);
  });
});
