// Start-up and task figures against the bare 60-line loop (the floor), measured in the same run and interleaved so a
// busy moment on the machine hits both sides alike: process spawn → the stub receives the first model request, and
// the whole task's wall time, CPU and peak RSS. Runs from `npm run bench` or alone: `BENCH_ONLY=startup npm run bench`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startOpenAIStub, type RecordedRequest, type StubReply } from '../test/stubs/openai-stub';
import { CLI, makeWorkspace } from '../test/helpers/runtime-process';
import { measure, median, type Sample } from './measure';
import { fmt, row, verdict } from './report';

const TASK = 'Read hello.txt, write out.txt containing HELLO, then explain what you did.';
// ~500 tokens of answer text.
const ANSWER = 'I read hello.txt and wrote out.txt with the text HELLO. '.repeat(45).trim();

/** Plays the task: read → write → streamed answer, chosen by how many tool results the request carries. */
function taskReply(req: RecordedRequest): StubReply {
  const toolResults = (req.body?.messages ?? []).filter((m: { role: string }) => m.role === 'tool').length;
  if (toolResults === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'hello.txt' } }] };
  if (toolResults === 1) return { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'HELLO\n' } }] };
  return { text: ANSWER };
}

interface TaskRun {
  sample: Sample;
  /** Process spawn → the stub received the first request. */
  firstRequestMs: number;
  firstRequestBytes: number;
}

/** Milliseconds on the clock shared with the stub (it runs in this process). */
const now = () => performance.now();

export async function runStartupBench(runs: number, env: NodeJS.ProcessEnv): Promise<void> {
  const arrivals: number[] = [];
  const stub = await startOpenAIStub({
    fallback: (req) => {
      arrivals.push(now());
      return taskReply(req);
    },
  });
  const runTask = async (cmd: string[], cwd: string, check: string): Promise<TaskRun> => {
    const before = stub.requests.length;
    const firstArrival = arrivals.length;
    const t0 = now();
    const sample = await measure(cmd, { cwd, env });
    if (sample.code !== 0 || readFileSync(path.join(cwd, 'out.txt'), 'utf8') !== 'HELLO\n') throw new Error(`${check} failed (exit ${sample.code})`);
    return { sample, firstRequestMs: arrivals[firstArrival]! - t0, firstRequestBytes: stub.requests[before]!.rawBodyBytes };
  };
  try {
    const agentRuns: TaskRun[] = [];
    const baseRuns: TaskRun[] = [];
    for (let i = 0; i < runs; i++) {
      const cwd = makeWorkspace({ 'hello.txt': 'hello\n' }, stub.origin);
      agentRuns.push(await runTask([process.execPath, CLI, '--bare', '-p', TASK, '--yolo'], cwd, 'agentcli task'));
      const baseCwd = makeWorkspace({ 'hello.txt': 'hello\n' });
      baseRuns.push(await runTask([process.execPath, path.join(__dirname, 'baseline-loop.mjs'), stub.url, TASK], baseCwd, 'baseline loop'));
    }
    const summary = (xs: TaskRun[]) => ({
      first: median(xs.map((r) => r.firstRequestMs)),
      wall: median(xs.map((r) => r.sample.wallMs)),
      cpu: median(xs.map((r) => r.sample.cpuMs)),
      rss: Math.max(...xs.map((r) => r.sample.maxRssMb)),
    });
    const agent = summary(agentRuns);
    const base = summary(baseRuns);
    row('60-line node loop: spawn → first model request', fmt(base.first));
    row('agentcli -p: spawn → first model request', fmt(agent.first), verdict(agent.first, base.first, 1.2, 'loop'));
    row('60-line node loop: task wall time', fmt(base.wall));
    row('agentcli --bare -p … --yolo: task wall time', fmt(agent.wall), verdict(agent.wall, base.wall, 1.1, 'loop'));
    row('  CPU (user+sys), loop / agentcli', `${fmt(base.cpu)} / ${fmt(agent.cpu)}`);
    row('  peak RSS, loop / agentcli', `${fmt(base.rss, 'MB')} / ${fmt(agent.rss, 'MB')}`, `target ≤ 120 MB: ${agent.rss <= 120 ? 'met' : 'MISSED'}`);
    const bytes = agentRuns[agentRuns.length - 1]!.firstRequestBytes;
    row('first model request size', fmt(bytes / 1024, 'KB'), `target ≤ 16 KB: ${bytes <= 16 * 1024 ? 'met' : 'MISSED'}`);
  } finally {
    await stub.close();
  }
}
