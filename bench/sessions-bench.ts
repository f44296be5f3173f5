// Saved session figures (not a test): getHistory over 2,000 saved sessions, attach of a 500-turn session, and what
// saving costs a turn (persist on vs off), and a turn's overhead at turn 1 vs turn 200 of one conversation.
// Runs from `npm run bench` or alone: `npm run build && npx tsx bench/sessions-bench.ts`.
import { existsSync, mkdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { startOpenAIStub } from '../test/stubs/openai-stub';
import { CLI, makeWorkspace, startRuntime, testEnv } from '../test/helpers/runtime-process';
import { SessionFileWriter } from '../src/runtime/sessions/writer';
import type { SessionLine } from '../src/runtime/sessions/records';
import { median } from './measure';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 2000);
const TURNS = Number(process.env.BENCH_SESSION_TURNS ?? 500);
/** Turns of the growing-conversation measure (per-turn overhead at turn 1 vs the last). */
const LONG_TURNS = Math.max(20, Number(process.env.BENCH_LONG_TURNS ?? 200));
const row = (what: string, value: string, note = '') => console.log(`${what.padEnd(48)} ${value.padEnd(22)} ${note}`);
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;

/** A saved session file of `turns` turns: prompt, assistant with a tool call, the tool's result (~1.5 KB), answer. */
function writeSession(dir: string, id: string, cwd: string, turns: number, ageMs: number): string {
  const file = path.join(dir, `${id}.jsonl`);
  const w = SessionFileWriter.create(file, {
    type: 'meta',
    version: 1,
    sessionId: id,
    cwd,
    createdAt: new Date(Date.now() - ageMs).toISOString(),
    title: `fix the failing test in module ${id.slice(-4)}`,
    provider: 'ggufserver',
    model: 'bench-model',
  });
  const lines: SessionLine[] = [];
  let count = 0;
  const base = () => ({ at: new Date().toISOString(), count, provider: 'ggufserver', model: 'bench-model' });
  for (let t = 0; t < turns; t++) {
    count++;
    lines.push({ type: 'message', ...base(), message: { role: 'user', content: `turn ${t}: look at src/file${t}.ts and fix the bug` } });
    count++;
    const call = { id: `call_${t}`, name: 'read_file', arguments: JSON.stringify({ path: `src/file${t}.ts` }) };
    lines.push({ type: 'message', ...base(), message: { role: 'assistant', content: 'Let me read it.', toolCalls: [call] } });
    count++;
    lines.push({ type: 'message', ...base(), message: { role: 'tool', toolCallId: call.id, toolName: 'read_file', content: `export const x${t} = 1;\n`.repeat(60) } });
    count++;
    lines.push({ type: 'message', ...base(), message: { role: 'assistant', content: `Fixed the bug in src/file${t}.ts by changing the export.` } });
  }
  w.appendAll(lines);
  w.close();
  const when = new Date(Date.now() - ageMs);
  utimesSync(file, when, when); // the last write orders the history
  return file;
}

export async function runSessionsBench(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  const stub = await startOpenAIStub({ fallback: () => ({ text: 'ok, done' }) });
  try {
    const env = testEnv();
    const dir = path.join(env.HOME!, '.agentcli', 'sessions');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const cwd = makeWorkspace({}, stub.origin);
    const other = makeWorkspace({}, stub.origin);
    for (let i = 0; i < SESSIONS; i++) {
      writeSession(dir, `session_${i.toString(16).padStart(12, '0')}`, i % 2 ? cwd : other, 5, i * 60_000);
    }
    const bigId = 'session_b16b16b16b16';
    const big = writeSession(dir, bigId, cwd, TURNS, 10);
    // The files were written without the runtime, so there is no index yet: the first listing reads every head and
    // writes the index; a new runtime then reads the index and stats the files.
    const first = await startRuntime(cwd, { env });
    let t0 = performance.now();
    await first.request('getHistory', { page: 1, pageSize: 20 });
    const unindexed = performance.now() - t0;
    await first.close();
    const rt = await startRuntime(cwd, { env });
    const times: number[] = [];
    const allTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      t0 = performance.now();
      const page = await rt.request('getHistory', { page: 1, pageSize: 20 });
      times.push(performance.now() - t0);
      if (page.total !== SESSIONS / 2 + 1 || page.entries[0]?.sessionId !== bigId) throw new Error('getHistory bench: wrong answer');
      t0 = performance.now();
      await rt.request('getHistory', { page: 5, pageSize: 50, allWorkspaces: true });
      allTimes.push(performance.now() - t0);
    }
    row(`getHistory, ${SESSIONS} saved sessions, no index`, fmt(unindexed), '(reads every file\'s first line, writes the index)');
    row(`getHistory, ${SESSIONS} saved sessions, new runtime`, fmt(times[0]!), '(the index, a stat per file, the page\'s last lines)');
    row(`getHistory, ${SESSIONS} saved sessions, later calls`, fmt(median(times.slice(1))), '(meta lines cached in the runtime)');
    row(`getHistory, all workspaces (page of 50)`, fmt(median(allTimes)));
    await rt.close();

    const attachTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await startRuntime(cwd, { env });
      const t0 = performance.now();
      const out = await r.request('attachSession', { sessionId: bigId });
      attachTimes.push(performance.now() - t0);
      if (!out.attached || out.messageCount !== TURNS * 4) throw new Error(`attach bench: ${JSON.stringify(out)}`);
      await r.close();
    }
    row(`attachSession, ${TURNS} turns (${(statSync(big).size / 1024 / 1024).toFixed(1)} MB)`, fmt(median(attachTimes)));

    // A turn's cost with saving on and off: short prompts in one runtime each, interleaved.
    const turn = async (persist: boolean) => {
      const ws = makeWorkspace({}, stub.origin, { sessions: { persist } });
      const r = await startRuntime(ws, { env: testEnv() });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        const { runId } = await r.request('prompt', { message: `prompt ${i}` });
        await r.waitForEvent('agent_end', (e) => e.runId === runId);
        out.push(performance.now() - t0);
      }
      await r.close();
      return median(out);
    };
    const on: number[] = [];
    const off: number[] = [];
    for (let i = 0; i < 3; i++) {
      off.push(await turn(false));
      on.push(await turn(true));
    }
    row('prompt → agent_end, saving off / on', `${fmt(median(off))} / ${fmt(median(on))}`, '(one append per message boundary)');

    // Per-turn overhead as a conversation grows: 200 short turns in one runtime (saving on, compaction on by default but
    // with a window the conversation never nears), the first turns against the last ones. The request grows by the
    // content itself (each turn adds a prompt and an answer); everything else must stay flat.
    const ws = makeWorkspace({}, stub.origin, { ggufserver: { baseUrl: stub.origin, contextSize: 1_000_000 } });
    const r = await startRuntime(ws, { env: testEnv() });
    const perTurn: number[] = [];
    const firstRequest = stub.requests.length;
    for (let i = 0; i < LONG_TURNS; i++) {
      const t0 = performance.now();
      const { runId } = await r.request('prompt', { message: `prompt ${i}: rename the helper in src/file${i}.ts` });
      await r.waitForEvent('agent_end', (e) => e.runId === runId);
      perTurn.push(performance.now() - t0);
    }
    await r.close();
    const bytes = stub.requests.slice(firstRequest).map((q) => q.rawBodyBytes);
    row(
      `prompt → agent_end, turn 1-10 / 11-20 / ${LONG_TURNS - 9}-${LONG_TURNS}`,
      `${fmt(median(perTurn.slice(0, 10)))} / ${fmt(median(perTurn.slice(10, 20)))} / ${fmt(median(perTurn.slice(-10)))}`,
      `(turns 1-10 warm up; request ${((bytes[0] ?? 0) / 1024).toFixed(1)} KB → ${((bytes.at(-1) ?? 0) / 1024).toFixed(1)} KB: the content)`,
    );
  } finally {
    await stub.close();
  }
}

if (require.main === module) {
  runSessionsBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
