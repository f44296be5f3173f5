// The parallel loop's figure (not a test): one model step with three `sleep 1` commands, run with --loop-type react
// (one after another) and parallel (at once), with --yolo so no prompt holds them: the median wall time of the whole
// `agentcli -p` run. Runs from `npm run bench` or alone: `npm run build && npx tsx bench/parallel-bench.ts`.
import { existsSync } from 'node:fs';
import { startOpenAIStub, type RecordedRequest, type StubReply } from '../test/stubs/openai-stub';
import { CLI, makeWorkspace, testEnv } from '../test/helpers/runtime-process';
import { measure, median } from './measure';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const row = (what: string, value: string, note = '') => console.log(`${what.padEnd(48)} ${value.padEnd(22)} ${note}`);
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

/** Three one-second commands in the first step, then a short answer. */
function reply(req: RecordedRequest): StubReply {
  const toolResults = (req.body?.messages ?? []).filter((m: { role: string }) => m.role === 'tool').length;
  if (toolResults > 0) return { text: 'three naps done' };
  return { toolCalls: [1, 2, 3].map((n) => ({ name: 'run_command', arguments: { command: `sleep 1; echo nap ${n}` } })) };
}

export async function runParallelBench(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  const stub = await startOpenAIStub({ fallback: reply });
  try {
    const env = testEnv();
    const walls: Record<string, number[]> = { react: [], parallel: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const loop of ['react', 'parallel'] as const) {
        const cwd = makeWorkspace({}, stub.origin);
        const s = await measure([process.execPath, CLI, '--loop-type', loop, '--yolo', '-p', 'take three naps'], { cwd, env });
        if (s.code !== 0) throw new Error(`agentcli --loop-type ${loop} failed (exit ${s.code})`);
        walls[loop]!.push(s.wallMs);
      }
    }
    const react = median(walls.react!);
    const parallel = median(walls.parallel!);
    row('3× sleep 1 in one step, --loop-type react', fmt(react), 'one after another: about 3 s plus the run');
    row('3× sleep 1 in one step, --loop-type parallel', fmt(parallel), `about 1 s plus the run: ${parallel < react - 1500 ? 'overlapped' : 'NOT overlapped'}`);
  } finally {
    await stub.close();
  }
}

if (require.main === module) {
  runParallelBench().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
