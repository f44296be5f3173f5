/**
 * The demo walkthrough model driving the real runtime (`agentcli --mode rpc` as a process) on a copy of the demo
 * workspace: the fix lands as one change batch whose acceptance makes the demo's failing tests pass, the test run asks
 * permission, the plan comes as a plan card and runs step by step, the read outside the workspace asks for the
 * folder, and the scripted error arrives with its remedy.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';
import { makeTempDir } from '../../helpers/temp-dir';
import { startDemoModel } from '../demo-model';
import type { OpenAIStub } from '../openai-stub';
import { DEMO_MODEL_ID, DEMO_PROMPTS } from './walkthrough';

const root = path.resolve(__dirname, '../../..');
const [EXPLAIN, TESTS, FIX, PLAN, STYLE, ERROR] = DEMO_PROMPTS;

describe('demo walkthrough model: the real runtime plays its flows', function () {
  this.timeout(60000);
  let demo: OpenAIStub;
  let runtimes: RuntimeUnderTest[] = [];

  beforeEach(async () => {
    demo = await startDemoModel({ chunkDelayMs: 0 });
  });
  afterEach(async () => {
    await Promise.all(runtimes.map((rt) => rt.close()));
    runtimes = [];
    await demo.close();
  });

  /** A copy of demo-workspace/ with the style guide next to it, configured for the demo model. */
  async function start(): Promise<{ rt: RuntimeUnderTest; cwd: string }> {
    const parent = makeTempDir('agentcli-demo-');
    const cwd = path.join(parent, 'demo-workspace');
    cpSync(path.join(root, 'demo-workspace'), cwd, { recursive: true });
    cpSync(path.join(__dirname, 'style-guide'), path.join(parent, 'style-guide'), { recursive: true });
    mkdirSync(path.join(cwd, '.agentcli'));
    writeFileSync(path.join(cwd, '.agentcli', 'config.json'), JSON.stringify({ provider: 'ggufserver', ggufserver: { baseUrl: demo.origin, model: DEMO_MODEL_ID } }));
    const rt = await startRuntime(cwd);
    runtimes.push(rt);
    return { rt, cwd };
  }

  async function answer(rt: RuntimeUnderTest, message: string) {
    const { runId } = await rt.request('prompt', { message });
    return rt.waitForEvent('agent_end', (e) => e.runId === runId, 30000);
  }

  it('explains the project from what it listed, read and found, introducing itself as a scripted demo', async () => {
    const { rt } = await start();
    const end = await answer(rt, EXPLAIN);
    assert.equal(end.status, 'completed');
    const tools = rt.events.filter((e) => e.type === 'tool_end').map((e) => (e.type === 'tool_end' && e.success ? 'ok' : 'failed'));
    assert.deepEqual(tools, ['ok', 'ok', 'ok', 'ok'], 'list_files, two reads and grep all ran');
    const first = rt.events.find((e) => e.type === 'message_end');
    assert.match(first?.type === 'message_end' ? first.content : '', /demo-walkthrough.*scripted demo model \(a test double\)/);
    assert.match(end.text, /1\. `README\.md`.*\n2\. `src\/main\.ts` \(no exports: where the program starts\)/);
    assert.match(end.text, /`src\/word-count\.js`: `wordCount`/);
    assert.match(end.text, /node --test --test-reporter=tap/);
  });

  /** Sends the test prompt and answers its permission request. */
  async function runTests(rt: RuntimeUnderTest, allowed: boolean) {
    const { runId } = await rt.request('prompt', { message: TESTS });
    const ask = await rt.waitForEvent('permission_request', (e) => e.runId === runId);
    assert.equal(ask.command, 'node --test --test-reporter=tap');
    await rt.request('permissionResponse', { requestId: ask.requestId, allowed });
    return rt.waitForEvent('agent_end', (e) => e.runId === runId, 30000);
  }

  it('fixes the failing tests as one three-file batch; accepted, the tests it runs (after asking) pass', async () => {
    const { rt, cwd } = await start();
    const failing = await runTests(rt, true);
    assert.match(failing.text, /\*\*2 of 3 tests fail:\*\*\n\n- counts words across line breaks\n- an empty text has no words/);
    const original = readFileSync(path.join(cwd, 'src/word-count.js'), 'utf8');
    const fixed = await answer(rt, FIX);
    assert.equal(fixed.status, 'completed');
    const ready = rt.events.find((e) => e.type === 'change_batch_ready');
    assert.ok(ready?.type === 'change_batch_ready', 'the fix arrived as a change batch');
    assert.deepEqual(ready.batch.changes.map((c) => `${c.kind} ${c.path}`), ['modify src/word-count.js', 'modify test/word-count.test.js', 'create CHANGELOG.md']);
    assert.match(fixed.text, /Nothing is on disk yet/);
    assert.equal(readFileSync(path.join(cwd, 'src/word-count.js'), 'utf8'), original, 'nothing written before the decision');
    const decided = await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
    assert.deepEqual(decided.results.map((r) => r.status), ['applied', 'applied', 'applied']);
    assert.match(readFileSync(path.join(cwd, 'src/word-count.js'), 'utf8'), /split\(\/\\s\+\/\)\.filter/);
    assert.match(readFileSync(path.join(cwd, 'CHANGELOG.md'), 'utf8'), /^# Changelog\n\n## Unreleased\n\n- `wordCount` counts words/);
    const passing = await runTests(rt, true);
    assert.match(passing.text, /All 4 tests pass\./);
    assert.doesNotMatch(passing.text, /test double/, 'the demo introduces itself once per conversation');
  });

  it('says so when the test run is denied', async () => {
    const { rt } = await start();
    const denied = await runTests(rt, false);
    assert.match(denied.text, /You denied running the tests, so I did not run them/);
  });

  it('plan mode: the plan is proposed, and accepted it runs step by step into a two-file batch', async () => {
    const { rt, cwd } = await start();
    await rt.request('setPlanMode', { enabled: true });
    const { runId } = await rt.request('prompt', { message: PLAN });
    const proposed = await rt.waitForEvent('plan_proposed', (e) => e.runId === runId);
    assert.deepEqual(proposed.steps.map((s) => s.title), ['Add farewell(name) to src/greet.ts', 'Print the farewell in src/main.ts']);
    await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    const accepted = await rt.request('respondToPlan', { planId: proposed.planId, decision: 'accept' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === accepted.runId, 30000);
    assert.equal(end.status, 'completed');
    assert.match(end.text, /Add farewell\(name\) to src\/greet\.ts: done\n- Print the farewell in src\/main\.ts: done/);
    const ready = await rt.waitForEvent('change_batch_ready');
    assert.deepEqual(ready.batch.changes.map((c) => c.path), ['src/greet.ts', 'src/main.ts']);
    await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
    assert.match(readFileSync(path.join(cwd, 'src/main.ts'), 'utf8'), /import \{ farewell, greet, shout \} from '\.\/greet';\n\nconsole\.log\(shout\(greet\('agentcli'\)\)\);\nconsole\.log\(farewell\('agentcli'\)\);/);
  });

  it('asks for the folder outside the workspace; allowed, it reads the style guide', async () => {
    const { rt } = await start();
    const { runId } = await rt.request('prompt', { message: STYLE });
    const ask = await rt.waitForEvent('directory_access_request', (e) => e.runId === runId);
    assert.equal(path.basename(ask.path), 'style-guide');
    await rt.request('respondToDirectoryAccess', { requestId: ask.requestId, allowed: true });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId, 30000);
    assert.match(end.text, /has 3 rules:/);
    assert.match(end.text, /`greet` \(src\/greet\.ts\)/);
  });

  it('the scripted error reaches the host with its remedy', async () => {
    const { rt } = await start();
    const end = await answer(rt, ERROR);
    assert.equal(end.status, 'error');
    const error = rt.events.find((e) => e.type === 'error');
    assert.ok(error?.type === 'error');
    assert.equal(error.code, 'context_too_long');
    assert.match(error.remedy ?? '', /larger context/);
  });
});
