// 1,000 cheap tool calls in one `agentcli -p` run (the stub asks for one read_file after another): the time per call
// (the stub receiving request k+1 minus request k) at calls 1-10 against calls 991-1000, and the run's peak RSS.
// What grows with the history on the model's side (the request body) is shown next to it: the bare loop would send the
// same. Runs from `npm run bench` or alone: `BENCH_ONLY=calls npm run bench` (BENCH_TOOL_CALLS sets the count).
import { startOpenAIStub, type RecordedRequest, type StubReply } from '../test/stubs/openai-stub';
import { CLI, makeWorkspace } from '../test/helpers/runtime-process';
import { measure, median } from './measure';
import { fmt, row, verdict } from './report';

const CALLS = Math.max(20, Number(process.env.BENCH_TOOL_CALLS ?? 1000));

export async function runToolCallsBench(env: NodeJS.ProcessEnv): Promise<void> {
  const arrivals: number[] = [];
  const reply = (req: RecordedRequest): StubReply => {
    arrivals.push(performance.now());
    const results = (req.body?.messages ?? []).filter((m: { role: string }) => m.role === 'tool').length;
    if (results < CALLS) return { toolCalls: [{ name: 'read_file', arguments: { path: 'hello.txt' } }] };
    return { text: 'done' };
  };
  const stub = await startOpenAIStub({ fallback: reply });
  try {
    // A context window the history fits in, so no compaction runs: this measures the per-call work alone.
    const config = { maxIterations: CALLS + 10, ggufserver: { baseUrl: stub.origin, contextSize: 1_000_000 } };
    const cwd = makeWorkspace({ 'hello.txt': 'hello\n' }, stub.origin, config);
    const s = await measure([process.execPath, CLI, '--bare', '-p', `call read_file ${CALLS} times`, '--yolo'], { cwd, env });
    if (s.code !== 0 || arrivals.length !== CALLS + 1) throw new Error(`agentcli run of ${CALLS} tool calls failed (exit ${s.code}, ${arrivals.length} requests)`);
    const perCall = arrivals.slice(1).map((t, i) => t - arrivals[i]!);
    const early = median(perCall.slice(0, 10));
    const late = median(perCall.slice(-10));
    row(`${CALLS} tool calls in one run: per call, calls 1-10`, fmt(early));
    row(`  per call, calls ${CALLS - 9}-${CALLS}`, fmt(late), verdict(late, early, 1.1, 'calls 1-10'));
    row('  request body, first / last', `${fmt(stub.requests[0]!.rawBodyBytes / 1024, 'KB')} / ${fmt(stub.requests.at(-1)!.rawBodyBytes / 1024, 'KB')}`);
    row('  peak RSS of the run', fmt(s.maxRssMb, 'MB'), `target ≤ 200 MB: ${s.maxRssMb <= 200 ? 'met' : 'MISSED'}`);
  } finally {
    await stub.close();
  }
}
