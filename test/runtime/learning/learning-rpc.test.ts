import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RpcErrorCode } from '../../../src/protocol';
import { makeWorkspace, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';
import { TS_MOCHA } from './fixtures';

const SKILL_TEXT = '---\nname: api-testing\ndescription: How the calc tests are written\n---\n# API testing\n\nRun `npm test`.\n';

describe('runtime rpc: skills and learning', () => {
  const t = useStubbedRuntime();

  it('generateSkill: a run offered only the read-only tools and write_file proposes the SKILL.md as a change batch, without asking', async () => {
    const cwd = makeWorkspace({ ...TS_MOCHA, '.agentcli/skills/my-notes.md': '# Mine\n' }, t.stub.origin);
    const rel = path.join('.agentcli', 'skills', 'api-testing', 'SKILL.md');
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'package.json' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: rel, content: SKILL_TEXT } }] },
      { text: 'Drafted the api-testing skill.' },
    );
    const rt = await t.start(cwd);
    const started = await rt.request('generateSkill', { name: 'api-testing', description: 'how the calc tests are written' });
    assert.equal(started.path, path.join(cwd, rel));
    const ready = await rt.waitForEvent('change_batch_ready', (e) => e.runId === started.runId);
    assert.deepEqual(ready.batch.changes.map((c) => [c.path, c.kind]), [[rel, 'create']]);
    assert.equal((await rt.waitForEvent('agent_end', (e) => e.runId === started.runId)).status, 'completed');
    assert.ok(!rt.events.some((e) => e.type === 'permission_request'), 'the SKILL.md write asked');
    assert.equal(existsSync(path.join(cwd, rel)), false, 'nothing written before the decision');
    const first = t.stub.requests[0]!.body;
    assert.deepEqual(first.tools.map((x: { function: { name: string } }) => x.function.name).sort(), ['grep', 'list_files', 'read_file', 'write_file']);
    const prompt = first.messages.find((m: { role: string }) => m.role === 'user').content as string;
    assert.match(prompt, /Skill name: api-testing\nWhat it should teach: how the calc tests are written/);
    assert.ok(prompt.includes(`path "${rel}"`), prompt);
    await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
    assert.equal(readFileSync(path.join(cwd, rel), 'utf8'), SKILL_TEXT);

    // The allowance ended with that run: the same write in an ordinary run asks again, with every tool offered.
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: rel, content: 'changed\n' } }] }, { text: 'ok' });
    await rt.request('prompt', { message: 'rewrite the skill' });
    const asked = await rt.waitForEvent('permission_request');
    assert.match(asked.description, /SKILL\.md/);
    await rt.request('permissionResponse', { requestId: asked.requestId, allowed: false });
    await rt.waitForEvent('agent_end', (e) => e.runId === asked.runId);
    assert.ok(t.stub.requests[3]!.body.tools.some((x: { function: { name: string } }) => x.function.name === 'run_command'));

    // Names: a bad one and an existing one are refused with the reason.
    await assert.rejects(rt.request('generateSkill', { name: 'Bad Name', description: 'x' }), (e: { code: number; message: string }) => {
      assert.equal(e.code, RpcErrorCode.InvalidParams);
      assert.match(e.message, /invalid skill name: use lower-case letters, digits and "-"/);
      return true;
    });
    await assert.rejects(rt.request('generateSkill', { name: 'my-notes', description: 'x' }), /a project skill "my-notes" exists already/);
    await rt.request('setPlanMode', { enabled: true });
    await assert.rejects(rt.request('generateSkill', { name: 'fresh', description: 'x' }), /generateSkill does not run in plan mode: turn it off first/);
  });

  it('generateSkill with the user scope proposes ~/.agentcli/skills/<name>/SKILL.md', async () => {
    const cwd = makeWorkspace(TS_MOCHA, t.stub.origin);
    const env = testEnv();
    const target = path.join(env.HOME!, '.agentcli', 'skills', 'release-notes', 'SKILL.md');
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: SKILL_TEXT } }] }, { text: 'done' });
    const rt = await t.start(cwd, { env });
    const started = await rt.request('generateSkill', { name: 'release-notes', description: 'how to write release notes', scope: 'user' });
    assert.equal(started.path, target);
    const ready = await rt.waitForEvent('change_batch_ready', (e) => e.runId === started.runId);
    assert.ok(!rt.events.some((e) => e.type === 'permission_request' || e.type === 'directory_access_request'), 'it asked');
    await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
    assert.equal(readFileSync(target, 'utf8'), SKILL_TEXT);
  });

  it('listSkills, getLearningRecommendations and updateLearnedSkills with learning_progress events', async () => {
    const cwd = makeWorkspace(TS_MOCHA, t.stub.origin);
    const rt = await t.start(cwd);
    const rec = await rt.request('getLearningRecommendations', {});
    assert.deepEqual(rec.recommendations.map((r) => [r.name, r.score, r.installed]), [['node-testing-mocha', 1, false], ['typescript-project', 1, false]]);
    const updated = await rt.request('updateLearnedSkills', { scope: 'project' });
    assert.deepEqual(updated.written.map((w) => w.name), ['learned-node-testing-mocha', 'learned-typescript-project']);
    const progress = rt.events.filter((e) => e.type === 'learning_progress').map((e) => (e.type === 'learning_progress' ? `${e.phase}:${e.done}/${e.total}` : ''));
    assert.deepEqual(progress, ['scanning:0/0', 'writing:0/2', 'writing:1/2', 'done:2/2']);
    const { skills } = await rt.request('listSkills', {});
    assert.deepEqual(skills.map((s) => [s.name, s.scope, s.learned]), [['learned-node-testing-mocha', 'project', true], ['learned-typescript-project', 'project', true]]);
    const after = await rt.request('getLearningRecommendations', {});
    assert.ok(after.recommendations.every((r) => r.installed));
  });
});
