import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../../src/protocol';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';
import { GO_MODULE } from '../runtime/learning/fixtures';

describe('sdk Agent: skills and learning against the real runtime', function () {
  const t = useStubAndAgent(this);

  it('recommends, learns with learning_progress events, lists, and generates a skill as a change batch', async () => {
    const cwd = makeWorkspace(GO_MODULE, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd));
    const events: AgentEvent[] = [];
    agent.client.onEvent((e) => events.push(e));

    const rec = await agent.getLearningRecommendations();
    assert.deepEqual(rec.recommendations.map((r) => [r.name, r.score]), [['go-modules', 1], ['github-actions', 0.7], ['docker', 0.6]]);
    const learned = await agent.updateLearnedSkills({ scope: 'project' });
    assert.deepEqual(learned.written.map((w) => w.name), ['learned-go-modules', 'learned-github-actions', 'learned-docker']);
    assert.deepEqual(
      events.flatMap((e) => (e.type === 'learning_progress' ? [`${e.phase}:${e.skill ?? ''}`] : [])),
      ['scanning:', 'writing:learned-go-modules', 'writing:learned-github-actions', 'writing:learned-docker', 'done:'],
    );
    assert.deepEqual((await agent.listSkills()).skills.map((s) => s.name), ['learned-docker', 'learned-github-actions', 'learned-go-modules']);
    assert.match(readFileSync(path.join(cwd, '.agentcli/skills/learned-go-modules/SKILL.md'), 'utf8'), /Go module `example\.com\/tool`, go 1\.22/);

    const rel = '.agentcli/skills/cli-flags/SKILL.md';
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: rel, content: '# CLI flags\n' } }] }, { text: 'drafted' });
    const ready = new Promise<Extract<AgentEvent, { type: 'change_batch_ready' }>>((resolve) =>
      agent.client.onEvent((e) => e.type === 'change_batch_ready' && resolve(e)),
    );
    const started = await agent.generateSkill({ name: 'cli-flags', description: 'how flags are parsed' });
    assert.equal(started.path, path.join(cwd, rel));
    const batch = (await ready).batch;
    assert.deepEqual(batch.changes.map((c) => c.path), [rel]);
    await agent.decideChanges({ batchId: batch.id, decision: 'accept_all' });
    assert.equal(readFileSync(path.join(cwd, rel), 'utf8'), '# CLI flags\n');
  });
});
