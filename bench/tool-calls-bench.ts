// 1,000 cheap tool calls in one `agentcli -p` run (the stub asks for one read_file after another). Per call, the
// runtime's own overhead: from the stub having written its whole reply to the next request's headers arriving, which
// is everything the runtime does between two model turns (parse the stream, run the tool, record, build and send the
// next request). Calls 1-10 against calls 991-1000, and the run's peak RSS. The model's side (the stub reading and
// parsing a request body that grows with the history) is not the runtime's overhead; the body size is shown beside.
// Runs from `npm run bench` or alone: `BENCH_ONLY=calls npm run bench` (BENCH_TOOL_CALLS sets the count).
import { startOpenAIStub, type RecordedRequest, type StubReply } from '../test/stubs/openai-stub';
import { CLI, makeWorkspace } from '../test/helpers/runtime-process';
import { measure, median } from './measure';
import { fmt, row, verdict } from './report';

const CALLS = Math.max(20, Number(process.env.BENCH_TOOL_CALLS ?? 1000));

export async function runToolCallsBench(env: NodeJS.ProcessEnv): Promise<void> {
  const requests: RecordedRequest[] = [];
  const reply = (req: RecordedRequest): StubReply => {
    const results = (req.body?.messages ?? []).filter((m: { role: string }) => m.role === 'tool').length;
    // Keep the timings, not the bodies (the one being answered is still needed; the stub keeps the same objects): 1,000 growing bodies held here would
    // slow this process, not the runtime.
    const previous = requests.at(-1);
    if (previous) previous.body = undefined;
    requests.push(req);
    if (results < CALLS) return { toolCalls: [{ name: 'read_file', arguments: { path: 'hello.txt' } }] };
    return { text: 'done' };
  };
  const stub = await startOpenAIStub({ fallback: reply });
  try {
    // A context window the history fits in, so no compaction runs: this measures the per-call work alone.
    const config = { maxIterations: CALLS + 10, ggufserver: { baseUrl: stub.origin, contextSize: 1_000_000 } };
    const cwd = makeWorkspace({ 'hello.txt': 'hello\n' }, stub.origin, config);
    const s = await measure([process.execPath, CLI, '--bare', '-p', `call read_file ${CALLS} times`, '--yolo'], { cwd, env });
    if (s.code !== 0 || requests.length !== CALLS + 1) throw new Error(`agentcli run of ${CALLS} tool calls failed (exit ${s.code}, ${requests.length} requests)`);
    const perCall = requests.slice(1).map((r, i) => r.receivedAt - requests[i]!.answeredAt!);
    const early = median(perCall.slice(0, 10));
    const late = median(perCall.slice(-10));
    row(`${CALLS} tool calls in one run: runtime overhead per call, calls 1-10`, fmt(early));
    row(`  per call, calls ${CALLS - 9}-${CALLS}`, fmt(late), verdict(late, early, 1.1, 'calls 1-10'));
    // Calls 1-10 still run code the JIT has not optimised yet: the same comparison from a warm start, for honesty.
    const warm = median(perCall.slice(90, 100));
    row('  per call, calls 91-100 (warm) → 991-1000', `${fmt(warm)} → ${fmt(late)}`, `${(late / warm).toFixed(2)}×`);
    const wall = requests.slice(1).map((r, i) => r.receivedAt - requests[i]!.receivedAt);
    row('  request to request (with the stub reading the body)', `${fmt(median(wall.slice(0, 10)))} → ${fmt(median(wall.slice(-10)))}`);
    row('  request body, first / last', `${fmt(requests[0]!.rawBodyBytes / 1024, 'KB')} / ${fmt(requests.at(-1)!.rawBodyBytes / 1024, 'KB')}`);
    row('  peak RSS of the run', fmt(s.maxRssMb, 'MB'), `target ≤ 200 MB: ${s.maxRssMb <= 200 ? 'met' : 'MISSED'}`);
  } finally {
    await stub.close();
  }
}
