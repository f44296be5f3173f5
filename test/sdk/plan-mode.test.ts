import assert from 'node:assert/strict';
import { InvalidArgumentError, type PlanProposal, type SdkEvent } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

type Typed<T extends string> = Extract<SdkEvent, { type: T }>;
const submit = (...titles: string[]) => ({ toolCalls: [{ name: 'submit_plan', arguments: { steps: titles.map((title) => ({ title })) } }] });

/** Plan mode, the loop strategies' events and respondToPlan through the SDK against the real runtime. */
describe('sdk: plan mode (onPlan, respondToPlan) and loop strategy events', function () {
  const t = useStubAndAgent(this);
  const chats = () => t.stub.requests.filter((r) => r.path.endsWith('/chat/completions'));

  it('a proposed plan is a typed plan_proposed event; respondToPlan revise then accept run as queued Runs', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue(submit('Write a.txt'), submit('Write a.txt', 'Check it'), { text: 'written' }, { text: 'checked' }, { text: 'Both done' });
    const agent = await t.create(testAgentOptions(cwd));
    await agent.setPlanMode(true);
    const first = await agent.run('make a.txt');
    assert.deepEqual([first.status, first.stoppedReason], ['stopped', 'plan_proposed']);
    const proposed = first.events.find((e): e is Typed<'plan_proposed'> => e.type === 'plan_proposed');
    assert.ok(proposed, first.events.map((e) => e.type).join(','));
    assert.deepEqual(proposed.steps, [{ title: 'Write a.txt', status: 'pending' }]);

    assert.throws(() => agent.respondToPlan({ planId: proposed.planId, decision: 'revise' }), InvalidArgumentError);
    const revised = await agent.respondToPlan({ planId: proposed.planId, decision: 'revise', note: 'and check it' }).wait();
    assert.equal(chats()[1]!.body.messages.at(-1).content, 'and check it');
    const second = revised.events.find((e): e is Typed<'plan_proposed'> => e.type === 'plan_proposed')!;
    const done = await agent.respondToPlan({ planId: second.planId, decision: 'accept' }).wait();
    assert.equal(done.status, 'completed');
    assert.equal(done.text, 'Both done');
    const updates = done.events.filter((e): e is Typed<'plan_update'> => e.type === 'plan_update');
    assert.deepEqual(updates.at(-1)!.steps.map((s) => s.status), ['done', 'done']);
    assert.equal((await agent.getState()).planMode, false);
  });

  it('onPlan answers by itself: the accepted plan runs after the proposing run', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue(submit('Say hi'), { text: 'hi' }, { text: 'Said hi' });
    const seen: PlanProposal[] = [];
    const agent = await t.create(testAgentOptions(cwd, { onPlan: (p) => (seen.push(p), 'accept') }));
    await agent.setPlanMode(true);
    const proposing = await agent.run('greet');
    assert.equal(proposing.stoppedReason, 'plan_proposed');
    const [planRun] = agent.takePlanRuns();
    assert.ok(planRun, 'the accepted plan has its Run');
    const result = await planRun.wait();
    assert.equal(result.text, 'Said hi');
    assert.deepEqual(seen.map((p) => p.text), ['1. Say hi']);
  });

  it('a reflexion run carries typed reflection events', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] }, { text: 'Guessed the name.' }, { text: 'gave up' });
    const agent = await t.create(testAgentOptions(cwd, { loopType: 'reflexion' }));
    const result = await agent.run('read it');
    const reflection = result.events.find((e): e is Typed<'reflection'> => e.type === 'reflection');
    assert.equal(reflection?.critique, 'Guessed the name.');
  });
});
