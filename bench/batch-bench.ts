// Change batch figures (not a test): a run that edits 60 files of 256 KiB. Batch events carry summaries, so their bytes
// grow with the file count only; the contents travel once, on request (getChangeContents, as the editor's prefetch does).
// Runs from `npm run bench` (bench/run.ts calls runBatchBench) or alone: `npm run build && npx tsx bench/batch-bench.ts`.
import { existsSync, readFileSync } from 'node:fs';
import { startOpenAIStub } from '../test/stubs/openai-stub';
import { CLI, makeWorkspace, startRuntime, testEnv } from '../test/helpers/runtime-process';
import type { AgentEvent } from '../src/protocol';

const FILES = Number(process.env.BENCH_BATCH_FILES ?? 60);
const FILE_BYTES = 256 * 1024;
const MB = 1024 * 1024;

const row = (what: string, value: string, note = '') => console.log(`${what.padEnd(48)} ${value.padEnd(22)} ${note}`);
const bytesOf = (events: AgentEvent[]) => events.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e), 'utf8'), 0);

/** A file of `bytes` of source-like text whose first line is unique. */
function fileText(seed: number, bytes: number): string {
  let out = `// file ${seed}\n`;
  for (let i = 0; out.length < bytes; i++) out += `export const value_${seed}_${i} = "${'x'.repeat(40)}"; // line ${i}\n`;
  return out.slice(0, bytes);
}

/** Peak resident set of a live process (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export async function runBatchBench(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  console.log(`Change batch benchmark: one run editing ${FILES} files of ${FILE_BYTES / 1024} KiB\n`);
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`src/f${i}.ts`] = fileText(i, FILE_BYTES);
  const stub = await startOpenAIStub();
  try {
    const cwd = makeWorkspace(files, stub.origin);
    stub.enqueue(
      { toolCalls: Object.keys(files).map((p, i) => ({ name: 'edit_file', arguments: { path: p, old_text: `// file ${i}\n`, new_text: `// file ${i}, edited\n` } })) },
      { text: 'edited them all' },
    );
    const rt = await startRuntime(cwd, { env: testEnv() });
    try {
      const t0 = performance.now();
      const { runId } = await rt.request('prompt', { message: `edit ${FILES} files` });
      await rt.waitForEvent('agent_end', (e) => e.runId === runId, 300_000);
      const runMs = performance.now() - t0;
      const rssAfterRun = peakRssMb(rt.proc.pid!);
      const batchEvents = rt.events.filter((e) => e.type === 'change_batch_updated' || e.type === 'change_batch_ready');
      const ready = rt.events.find((e) => e.type === 'change_batch_ready');
      if (ready?.type !== 'change_batch_ready' || ready.batch.changes.length !== FILES) throw new Error('the batch did not hold every file');
      const eventBytes = bytesOf(batchEvents);
      // What the earlier shape (the whole batch with both contents in every update) would have sent, from the sizes.
      const perFile = ready.batch.changes.reduce((n, c) => n + (c.originalBytes ?? 0) + (c.proposedBytes ?? 0), 0) / FILES;
      const wholeBatchEach = (perFile * FILES * (FILES + 1)) / 2 + perFile * FILES;
      // The editor fetches the contents once (its prefetch when the batch is pending), in bounded answers.
      const f0 = performance.now();
      let fetched = 0;
      let answers = 0;
      for (let ids: string[] | undefined; ids === undefined || ids.length > 0; answers++) {
        const r = await rt.request('getChangeContents', { batchId: ready.batch.id, ...(ids ? { changeIds: ids } : {}) });
        fetched += Buffer.byteLength(JSON.stringify(r.contents), 'utf8');
        ids = r.omitted;
      }
      const fetchMs = performance.now() - f0;
      const rss = peakRssMb(rt.proc.pid!);
      row('batch events (updated + ready), bytes', `${(eventBytes / 1024).toFixed(1)} KiB`, `${(eventBytes / FILES).toFixed(0)} B per file; the whole batch per update would be ~${(wholeBatchEach / MB).toFixed(0)} MB`);
      row('run wall time (60 edit_file calls)', `${runMs.toFixed(0)} ms`);
      row('getChangeContents of the whole batch', `${(fetched / MB).toFixed(1)} MB`, `${answers} answers (≤ 8 MiB each), ${fetchMs.toFixed(0)} ms`);
      row('runtime peak RSS, after the run / after the fetch', `${rssAfterRun.toFixed(0)} MB / ${rss.toFixed(0)} MB`);
    } finally {
      await rt.close();
    }
  } finally {
    await stub.close();
  }
}

if (require.main === module) {
  runBatchBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
