// `npm run bench`: harness-overhead figures against the local stub model server. Not a test: it prints numbers.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOpenAIStub, type RecordedRequest, type StubReply } from '../test/stubs/openai-stub';
import { CLI, makeWorkspace, startRuntime } from '../test/helpers/runtime-process';
import { runBatchBench } from './batch-bench';
import { runSessionsBench } from './sessions-bench';
import { runParallelBench } from './parallel-bench';
import { measure, median, medianOf } from './measure';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
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

const fmt = (n: number, unit = 'ms') => `${n.toFixed(n < 10 ? 2 : 0)} ${unit}`;
const rows: Array<[string, string, string]> = [];
const row = (what: string, value: string, target = '') => {
  rows.push([what, value, target]);
  console.log(`${what.padEnd(48)} ${value.padEnd(22)} ${target}`);
};

async function main() {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  const home = mkdtempSync(path.join(os.tmpdir(), 'agentcli-bench-home-'));
  const env = { PATH: process.env.PATH, HOME: home };
  console.log(`agentcli benchmark: medians of ${RUNS} runs on ${os.cpus().length} cores, node ${process.version}\n`);

  const nodeFloor = await medianOf(RUNS, () => measure([process.execPath, '-e', '0'], { env }));
  const version = await medianOf(RUNS, () => measure([process.execPath, CLI, '--version'], { env }));
  row('node -e 0', fmt(nodeFloor.wallMs));
  row('agentcli --version (cold start)', fmt(version.wallMs), `target ≤ ${fmt(nodeFloor.wallMs * 1.5)} (1.5× node): ${version.wallMs <= nodeFloor.wallMs * 1.5 ? 'met' : 'MISSED'}`);

  const stub = await startOpenAIStub({ fallback: taskReply });
  try {
    // Interleaved, so a busy moment on the machine hits both sides alike.
    const agentRuns = [];
    const baseRuns = [];
    let firstRequestBytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const cwd = makeWorkspace({ 'hello.txt': 'hello\n' }, stub.origin);
      const before = stub.requests.length;
      const s = await measure([process.execPath, CLI, '--bare', '-p', TASK, '--yolo'], { cwd, env });
      if (s.code !== 0 || readFileSync(path.join(cwd, 'out.txt'), 'utf8') !== 'HELLO\n') throw new Error(`agentcli task failed (exit ${s.code})`);
      firstRequestBytes = stub.requests[before]!.rawBodyBytes;
      agentRuns.push(s);
      const baseCwd = makeWorkspace({ 'hello.txt': 'hello\n' });
      const b = await measure([process.execPath, path.join(__dirname, 'baseline-loop.mjs'), stub.url, TASK], { cwd: baseCwd, env });
      if (b.code !== 0 || readFileSync(path.join(baseCwd, 'out.txt'), 'utf8') !== 'HELLO\n') throw new Error('baseline loop failed');
      baseRuns.push(b);
    }
    const agent = { wall: median(agentRuns.map((s) => s.wallMs)), cpu: median(agentRuns.map((s) => s.cpuMs)), rss: Math.max(...agentRuns.map((s) => s.maxRssMb)) };
    const base = { wall: median(baseRuns.map((s) => s.wallMs)), cpu: median(baseRuns.map((s) => s.cpuMs)), rss: Math.max(...baseRuns.map((s) => s.maxRssMb)) };
    row('60-line node loop: task wall time', fmt(base.wall));
    row('agentcli --bare -p … --yolo: task wall time', fmt(agent.wall), `target ≤ ${fmt(base.wall * 1.3)} (1.3× loop): ${agent.wall <= base.wall * 1.3 ? 'met' : 'MISSED'}`);
    row('  CPU (user+sys), loop / agentcli', `${fmt(base.cpu)} / ${fmt(agent.cpu)}`);
    row('  peak RSS, loop / agentcli', `${fmt(base.rss, 'MB')} / ${fmt(agent.rss, 'MB')}`, `target ≤ 120 MB: ${agent.rss <= 120 ? 'met' : 'MISSED'}`);
    row('first model request size', fmt(firstRequestBytes / 1024, 'KB'), `target ≤ 16 KB: ${firstRequestBytes <= 16 * 1024 ? 'met' : 'MISSED'}`);

    // RPC: spawn → initialize answered; events relayed per second.
    const initTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const rt = await startRuntime(makeWorkspace({}, stub.origin), { env });
      initTimes.push(performance.now() - t0);
      await rt.close();
    }
    row('rpc: spawn → initialize answered', fmt(median(initTimes)));
    // A long answer streamed as fast as the stub can write it: the runtime joins the deltas of one network read into
    // one event, so the text throughput is the figure to compare; the event rate says how many reads that took.
    const rates: number[] = [];
    const charRates: number[] = [];
    for (let i = 0; i < 3; i++) {
      const rt = await startRuntime(makeWorkspace({}, stub.origin), { env });
      stub.enqueue({ text: 'token '.repeat(40000) });
      await rt.request('prompt', { message: 'stream a lot' });
      await rt.waitForEvent('message_update');
      const t0 = performance.now();
      await rt.waitForEvent('agent_end', undefined, 120000);
      const seconds = (performance.now() - t0) / 1000;
      const updates = rt.events.filter((e) => e.type === 'message_update');
      rates.push((updates.length - 1) / seconds);
      charRates.push(updates.slice(1).reduce((n, e) => n + (e.type === 'message_update' ? e.delta.length : 0), 0) / seconds);
      await rt.close();
    }
    row('rpc: streamed text relayed', `${(median(charRates) / 1e6).toFixed(2)} M chars/s`, `(${Math.round(median(charRates) / 6)} six-char tokens/s)`);
    row('rpc: message_update events relayed', `${Math.round(median(rates))} /s`, '(one per network read)');
  } finally {
    await stub.close();
  }
  // The extension's own activation work (bundle load + activate()), each in a fresh process.
  const activations: Array<{ loadMs: number; activateMs: number; totalMs: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const s = await measure([process.execPath, path.join(__dirname, 'extension-activation.cjs')], { env });
    if (s.code !== 0) throw new Error(`extension activation bench failed (exit ${s.code})`);
    activations.push(JSON.parse(s.stdout) as { loadMs: number; activateMs: number; totalMs: number });
  }
  const activation = median(activations.map((a) => a.totalMs));
  row(
    'extension: bundle load + activate()',
    `${fmt(activation)} (load ${fmt(median(activations.map((a) => a.loadMs)))})`,
    `target < 50 ms: ${activation < 50 ? 'met' : 'MISSED'}`,
  );

  console.log('');
  await runBatchBench();
  console.log('');
  await runSessionsBench();
  console.log('');
  await runParallelBench();

  const sdkBench = path.join(__dirname, 'sdk-bench.ts');
  if (existsSync(sdkBench)) {
    const mod = (await import(sdkBench)) as { runSdkBench?: () => Promise<void> };
    if (mod.runSdkBench) {
      console.log('');
      await mod.runSdkBench();
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
