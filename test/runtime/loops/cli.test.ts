import assert from 'node:assert/strict';
import { PROTOCOL_VERSION } from '../../../src/protocol';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { makeWorkspace, runCli, startRuntime } from '../../helpers/runtime-process';

describe('loop strategies on the command line', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(() => stub.close());

  it('an unknown --loop-type is a usage error naming the four strategies', async () => {
    const r = await runCli(['--loop-type', 'zigzag', '-p', 'hi'], makeWorkspace({}));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--loop-type must be one of react, plan-and-execute, parallel, reflexion \(got "zigzag"\)/);
  });

  it('an unknown config loopType names the key and the four strategies', async () => {
    const r = await runCli(['-p', 'hi'], makeWorkspace({}, stub.origin, { loopType: 'zigzag' }));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /loopType/);
    assert.match(r.stderr, /"react", "plan-and-execute", "parallel", "reflexion"/);
  });

  it('-p with plan-and-execute shows the plan and each step on stderr and prints the answers on stdout', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, stub.origin);
    stub.enqueue(
      { toolCalls: [{ name: 'submit_plan', arguments: { steps: [{ title: 'Read a.txt' }, { title: 'Report' }] } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'read it' },
      { text: 'alpha it is' },
      { text: 'Summary: a.txt says alpha' },
    );
    const r = await runCli(['--loop-type', 'plan-and-execute', '-p', 'what is in a.txt'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /plan \(2 steps\):\n {2}○ 1\. Read a\.txt\n {2}○ 2\. Report/);
    assert.match(r.stderr, /▸ step 1\/2: Read a\.txt/);
    assert.match(r.stderr, /✓ step 2\/2 done: alpha it is/);
    assert.match(r.stdout, /Summary: a\.txt says alpha\s*$/);
  });

  it('initialize lists the four loop types', async () => {
    const rt = await startRuntime(makeWorkspace({}, stub.origin), { initialize: false });
    try {
      const init = await rt.request('initialize', { protocolVersion: PROTOCOL_VERSION });
      assert.deepEqual(init.capabilities.loopTypes, ['react', 'plan-and-execute', 'parallel', 'reflexion']);
    } finally {
      await rt.close();
    }
  });
});
