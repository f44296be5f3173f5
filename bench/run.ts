// `npm run bench`: harness-overhead figures against the local stub model server. Not a test: it prints numbers.
// One part alone: BENCH_ONLY=startup|rpc|extension|scale|calls|batch|sessions|parallel|panel|editor|sdk (comma-separated).
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOpenAIStub } from '../test/stubs/openai-stub';
import { CLI, makeWorkspace, startRuntime } from '../test/helpers/runtime-process';
import { runBatchBench } from './batch-bench';
import { runSessionsBench } from './sessions-bench';
import { runParallelBench } from './parallel-bench';
import { runStartupBench } from './startup-bench';
import { runScaleBench } from './scale-bench';
import { runToolCallsBench } from './tool-calls-bench';
import { runPanelBench } from './panel-bench';
import { runEditorBench } from './editor-bench';
import { measure, median, medianOf } from './measure';
import { fmt, row, selected } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

/** RPC: spawn → initialize answered; streamed text relayed per second. */
async function runRpcFigures(env: NodeJS.ProcessEnv): Promise<void> {
  const stub = await startOpenAIStub();
  try {
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
}

/**
 * The extension's own activation work (bundle load + activate()), each in a fresh process: with the entry's code cache
 * (a window reload; one activation first makes it) and without (the first activation of a build).
 */
async function runActivationFigures(env: NodeJS.ProcessEnv): Promise<void> {
  type Activation = { loadMs: number; activateMs: number; totalMs: number; cache: string };
  const activate = async (runEnv: NodeJS.ProcessEnv): Promise<Activation> => {
    const s = await measure([process.execPath, path.join(__dirname, 'extension-activation.cjs')], { env: runEnv });
    if (s.code !== 0) throw new Error(`extension activation bench failed (exit ${s.code})`);
    return JSON.parse(s.stdout) as Activation;
  };
  await activate(env);
  const warm: Activation[] = [];
  const cold: Activation[] = [];
  for (let i = 0; i < RUNS; i++) {
    warm.push(await activate(env));
    cold.push(await activate({ ...env, AGENTCLI_NO_CODE_CACHE: '1' }));
  }
  if (warm.some((a) => a.cache !== 'used')) throw new Error(`extension activation bench: the code cache was not used (${warm.map((a) => a.cache).join(', ')})`);
  const activation = median(warm.map((a) => a.totalMs));
  row(
    'extension: bundle load + activate()',
    `${fmt(activation)} (load ${fmt(median(warm.map((a) => a.loadMs)))})`,
    `target < 50 ms: ${activation < 50 ? 'met' : 'MISSED'} (with the code cache, as after a reload)`,
  );
  row('  the first activation of a build (no cache)', fmt(median(cold.map((a) => a.totalMs))));
}

async function main() {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  const home = mkdtempSync(path.join(os.tmpdir(), 'agentcli-bench-home-'));
  const env = { PATH: process.env.PATH, HOME: home };
  console.log(`agentcli benchmark: medians of ${RUNS} runs on ${os.cpus().length} cores, node ${process.version}\n`);

  if (selected('startup')) {
    const nodeFloor = await medianOf(RUNS, () => measure([process.execPath, '-e', '0'], { env }));
    const version = await medianOf(RUNS, () => measure([process.execPath, CLI, '--version'], { env }));
    row('node -e 0', fmt(nodeFloor.wallMs));
    row('agentcli --version (cold start)', fmt(version.wallMs), `target ≤ ${fmt(nodeFloor.wallMs * 1.5)} (1.5× node): ${version.wallMs <= nodeFloor.wallMs * 1.5 ? 'met' : 'MISSED'}`);
    await runStartupBench(RUNS, env);
  }
  if (selected('rpc')) await runRpcFigures(env);
  if (selected('extension')) await runActivationFigures(env);
  const parts: Array<[string, () => Promise<void>]> = [
    ['scale', () => runScaleBench(RUNS, env)],
    ['calls', () => runToolCallsBench(env)],
    ['batch', runBatchBench],
    ['sessions', runSessionsBench],
    ['parallel', runParallelBench],
    ['panel', runPanelBench],
    ['editor', runEditorBench],
  ];
  for (const [name, run] of parts) {
    if (!selected(name)) continue;
    console.log('');
    await run();
  }
  const sdkBench = path.join(__dirname, 'sdk-bench.ts');
  if (selected('sdk') && existsSync(sdkBench)) {
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
