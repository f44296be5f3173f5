// SDK figures (not a test): Agent.create → first event latency, and the cost of step control per step.
// Runs from `npm run bench` (bench/run.ts calls runSdkBench) or alone: `npm run build && npx tsx bench/sdk-bench.ts`.
import { existsSync } from 'node:fs';
import { Agent, isStepCount, type StopCondition } from '../src/sdk';
import { startOpenAIStub, type RecordedRequest, type StubReply } from '../test/stubs/openai-stub';
import { BUILT_CLI, makeWorkspace, testAgentOptions } from '../test/sdk/helpers';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const STEPS = 20;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
const row = (what: string, value: string, note = '') => console.log(`${what.padEnd(48)} ${value.padEnd(22)} ${note}`);

/** Scripts a run of STEPS tool steps, then an answer, counting the tool results since the last user message. */
function scriptedSteps(req: RecordedRequest): StubReply {
  const messages: Array<{ role: string }> = req.body?.messages ?? [];
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const done = messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length;
  return done < STEPS ? { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] } : { text: 'done' };
}

export async function runSdkBench(): Promise<void> {
  if (!existsSync(BUILT_CLI)) throw new Error('build first: npm run build');
  console.log(`SDK benchmark: medians of ${RUNS} runs\n`);
  const stub = await startOpenAIStub({ fallback: scriptedSteps });
  try {
    // Agent.create (spawn + handshake) and create → first event of the first run.
    const createMs: number[] = [];
    const firstEventMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const cwd = makeWorkspace({}, stub.origin);
      stub.enqueue({ text: 'hi' });
      const t0 = performance.now();
      const agent = await Agent.create(testAgentOptions(cwd));
      createMs.push(performance.now() - t0);
      const run = agent.send('hello');
      for await (const _event of run.stream()) {
        firstEventMs.push(performance.now() - t0);
        break;
      }
      await run.wait();
      await agent.close();
    }
    row('sdk: Agent.create (spawn + initialize)', fmt(median(createMs)));
    row('sdk: Agent.create → first event', fmt(median(firstEventMs)));

    // Step control: the same 20-step run with and without stopWhen (conditions that never stop).
    const agent = await Agent.create(testAgentOptions(makeWorkspace({ 'a.txt': 'alpha\n' }, stub.origin)));
    const never: StopCondition = () => false;
    const timeRun = async (withStopWhen: boolean): Promise<number> => {
      await agent.reset();
      const t0 = performance.now();
      const result = await agent.run('step through', withStopWhen ? { stopWhen: [isStepCount(STEPS + 1), never] } : {});
      const ms = performance.now() - t0;
      if (result.steps.length !== STEPS || result.status !== 'completed') throw new Error(`expected ${STEPS} steps, got ${result.steps.length} (${result.status})`);
      return ms;
    };
    await timeRun(false); // warm-up
    await timeRun(true);
    const plain: number[] = [];
    const controlled: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push(await timeRun(false));
      controlled.push(await timeRun(true));
    }
    await agent.close();
    const perStepPlain = median(plain) / STEPS;
    const perStepControlled = median(controlled) / STEPS;
    const added = perStepControlled - perStepPlain;
    row(`sdk: ${STEPS}-step run without stopWhen`, `${fmt(median(plain))} (${fmt(perStepPlain)}/step)`);
    row(`sdk: ${STEPS}-step run with stopWhen`, `${fmt(median(controlled))} (${fmt(perStepControlled)}/step)`);
    row('sdk: step control added per step', fmt(added), `target < 1 ms: ${added < 1 ? 'met' : 'MISSED'}`);
  } finally {
    await stub.close();
  }
}

if (require.main === module) {
  runSdkBench().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
