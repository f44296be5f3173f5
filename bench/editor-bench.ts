// The editor's figures (not a test), in a real VS Code (code-server + Debian's chromium, own VSC_RUN_DIR): the chat
// panel after a window reload with the panel open (workbench shown → prompt box usable → restored transcript shown),
// and Enter in the panel → the first streamed character on screen. Timed by the browser: an init script in every
// frame stamps the moments with performance.timeOrigin + performance.now() (one wall clock across the frames).
// Enter → first character also reports the CPU each part of the machine used meanwhile (bench/process-cpu.ts), and the
// floor is also measured asking the bench's model itself from its extension host: what a panel with a model pays.
// Each figure is also taken of a floor, bench/floor-extension (a prompt box that echoes through the extension host), in
// a code-server of its own: what any chat panel pays there, so the row shows ours, the floor's and the difference.
// Runs from `npm run bench` or alone: `node esbuild.mjs && npx tsx bench/editor-bench.ts`.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { spawn, type ChildProcess } from 'node:child_process';
import { chatView, runCommand } from '../test/e2e/harness';
import { ENTRY, NODE24, QUIET_USER_SETTINGS, launchChromium, startCodeServer } from '../scripts/vscode-lib';
import { median } from './measure';
import { cpuBetween, cpuSnapshot, type CpuTimes, type Role } from './process-cpu';

const ROOT = path.resolve(__dirname, '..');
const RUN_DIR = path.resolve(process.env.VSC_RUN_DIR ?? path.join(ROOT, '.vscode-test-run', 'editor-bench'));
/** BENCH_EXTENSION_DIR: another checkout of the extension to measure (e.g. an older commit, built). */
const EXTENSION_DIR = path.resolve(process.env.BENCH_EXTENSION_DIR ?? ROOT);
const RELOADS = Number(process.env.BENCH_RELOADS ?? 3);
const PROMPTS = Number(process.env.BENCH_EDITOR_PROMPTS ?? 5);
const row = (what: string, value: string, note = '') => console.log(`${what.padEnd(48)} ${value.padEnd(28)} ${note}`);
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

interface Stamps {
  workbench?: number;
  enter?: number;
  /** Element Timing's paint of the answer (0 until it is reported). */
  answer?: Record<string, number>;
  answerFrame?: Record<string, number>;
}

/**
 * Stamps moments in a frame (a string: the page must not see transpiler helpers): in the top frame the workbench (as
 * an init script), in the chat's content frame Enter (the key event's own time) and the paint that first shows an
 * answer containing a `[[marker]]` (evaluated there once it is shown: VS Code writes the webview's document with
 * document.open(), which drops what an init script set up). The answer's paint is the browser's own Element Timing:
 * when the document changes (a MutationObserver, before the next paint) the answer's elements get an `elementtiming`
 * name, and the renderTime Chromium reports for them is the stamp, whether the page changed the document in a task or
 * in an animation frame (when none comes, the start of the frame after the change, which can be one frame late). The panel's own performance marks (agentcli:input-ready, agentcli:transcript-shown) time the
 * reload.
 */
const stamper = (where: 'top' | 'panel') => `(() => {
  if (${where === 'top' ? 'window !== window.top' : 'false'}) return;
  const now = () => performance.timeOrigin + performance.now();
  const s = (window.__edperf = { answer: {}, answerFrame: {} });
  const painted = (set) => requestAnimationFrame(() => set(now()));
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const k = /^answer-(\\w+)$/.exec(e.identifier);
      const at = e.renderTime || e.loadTime;
      if (k && at > 0 && !(s.answer[k[1]] > 0)) s.answer[k[1]] = performance.timeOrigin + at;
    }
  }).observe({ type: 'element', buffered: true });
  const check = () => {
    if (s.workbench === undefined && document.querySelector('.monaco-workbench .part.activitybar')) painted((t) => (s.workbench ??= t));
    const input = document.querySelector('textarea[data-testid="prompt-input"]');
    if (input && !s.listening) {
      s.listening = true;
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) s.enter = performance.timeOrigin + e.timeStamp; }, true);
    }
    for (const m of document.querySelectorAll('[data-testid="assistant-message"]')) {
      const k = /\\[\\[(\\w+)\\]\\]/.exec(m.textContent || '');
      if (!k || s.answer[k[1]] !== undefined) continue;
      s.answer[k[1]] = 0;
      painted((t) => (s.answerFrame[k[1]] = t)); // the fallback when Chromium reports no Element Timing entry
      for (const el of [m, ...m.querySelectorAll('*')]) el.setAttribute('elementtiming', 'answer-' + k[1]);
    }
  };
  const loop = () => { check(); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  new MutationObserver(check).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
})();`;

interface PanelMarks {
  /** The first frame that shows the prompt box (the page carries it: it takes typing before the panel's code runs). */
  input: number;
  /** The panel's code has started (the composer has the box). */
  started: number;
  shown: number;
  /** The panel document began loading (its navigation start). */
  documentStart: number;
}

/** What the bench measures: agentcli's panel, or the floor (bench/floor-extension: a prompt box that echoes). */
interface Target {
  name: string;
  extensionDir: string;
  /** publisher.name: the webview frame's src and the extension host's log name it. */
  extensionId: string;
  openCommand: string;
  /** How the view container's label in the activity bar begins (present once the workbench has the extension). */
  activityLabels: string[];
  /** The workspace's .vscode/settings.json. */
  settings: Record<string, unknown>;
  /** When the model was asked for the answer with this marker (undefined: no model in the path). */
  modelAsked: (marker: string) => number | undefined;
  /** The floor only: prompts that ask the model straight from the extension host are measured too. */
  asksModel?: boolean;
}

interface Figures {
  reloadToWorkbench: number[];
  toInput: number[];
  toStarted: number[];
  toItems: number[];
  panelStarts: number[];
  timelines: Array<ReturnType<typeof hostTimeline>>;
  firstChar: number[];
  toModel: number[];
  /** The CPU each part of the machine used from Enter until the answer was seen (/proc schedstat), per prompt. */
  cpu: Array<Map<Role, CpuTimes>>;
  /** How long those stretches were (Enter → the answer seen by the bench's poll, a little after its paint). */
  cpuWindow: number[];
  /** The floor's prompts that ask the model from its extension host: Enter → first character, and → the request. */
  viaModel: number[];
  viaModelToModel: number[];
  /** How many answers were stamped by frame, not by Element Timing. */
  byFrame: number;
}

const contentFrame = (page: Page, t: Target) => chatView(page, t.extensionId);

/** The panel's performance marks and its document's own timeline as wall-clock times (undefined until both marks are there). */
async function panelMarks(page: Page, t: Target): Promise<PanelMarks | undefined> {
  // A string: a function would be wrapped with transpiler helpers the page does not have.
  const marks = (await contentFrame(page, t).locator('body').evaluate(`(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
    return [at('agentcli:input-ready'), at('agentcli:panel-started'), at('agentcli:transcript-shown'), 0].map((t) => (t === undefined ? null : performance.timeOrigin + t));
  })()`)) as Array<number | null>;
  const [input, started, shown, documentStart] = marks;
  if (input == null || started == null || shown == null) return undefined;
  return { input, started, shown, documentStart: documentStart ?? NaN };
}

async function chatStamps(page: Page, t: Target): Promise<Stamps> {
  return contentFrame(page, t).locator('body').evaluate(() => (window as unknown as { __edperf: Stamps }).__edperf);
}

async function topStamps(page: Page): Promise<Stamps> {
  return page.evaluate(() => (window as unknown as { __edperf: Stamps }).__edperf);
}

/** The newest extension host's log lines (one folder per host: each reload starts a new one). */
function newestHostLogs(logsRoot: string): { host: string[]; ours: string[] } {
  const hosts: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      if (/^exthost\d+$/.test(e.name)) hosts.push(path.join(dir, e.name));
      else walk(path.join(dir, e.name));
    }
  };
  if (existsSync(logsRoot)) walk(logsRoot);
  const newest = hosts.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  const lines = (f: string) => (newest && existsSync(path.join(newest, f)) ? readFileSync(path.join(newest, f), 'utf8').split('\n') : []);
  return { host: lines('remoteexthost.log'), ours: lines(path.join('agentcli.agentcli', 'agentcli.log')) };
}

/**
 * When activate() returned: the time the line carries (the log stamps a line when it writes it, up to a second later;
 * a build from before that field: the stamp).
 */
function activatedAt(lines: string[]): number {
  const at = lines.map((l) => /activated in [\d.]+ ms .* at (\S+Z)$/.exec(l)?.[1]).find((t) => t !== undefined);
  return at === undefined ? NaN : Date.parse(at);
}

/** Where a reload's time goes, from the extension host's and agentcli's own logs (wall clock, like the stamps). */
function hostTimeline(logsRoot: string, workbench: number, extensionId: string): { hostStarted: number; activationAsked: number; activated: number } {
  const { host, ours } = newestHostLogs(logsRoot);
  const at = (lines: string[], re: RegExp) => {
    const line = lines.find((l) => re.test(l));
    return line ? Date.parse(line.slice(0, 23).replace(' ', 'T')) - workbench : NaN;
  };
  return {
    hostStarted: at(host, /Extension host with pid \d+ started/),
    activationAsked: at(host, new RegExp(`_doActivateExtension ${extensionId.replace('.', '\\.')}`)),
    activated: activatedAt(ours) - workbench || at(ours, /activated in [\d.]+ ms/),
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`editor bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Enter → the answer's first characters on screen, the model answering at once (the floor echoes the prompt's marker). */
async function promptToFirstChar(page: Page, t: Target, marker: string, extra = ''): Promise<{ total: number; toModel: number; byFrame: boolean; cpu: Map<Role, CpuTimes>; cpuWindow: number }> {
  const box = contentFrame(page, t).locator('textarea').first();
  await box.click();
  await box.fill(`bench prompt ${marker}${extra}`);
  const cpuBefore = cpuSnapshot();
  await box.press('Enter');
  const seen = await until(`the answer ${marker}`, async () => {
    const s = await chatStamps(page, t);
    return s.answerFrame?.[marker] ? s : undefined;
  }, 30_000);
  const seenAt = performance.timeOrigin + performance.now();
  const cpu = cpuBetween(cpuBefore, cpuSnapshot());
  // Element Timing reports the paint a little later than the frame stamp; give it a second.
  const painted = await until(`the paint of ${marker}`, async () => {
    const s = await chatStamps(page, t);
    return s.answer?.[marker] ? s.answer[marker] : undefined;
  }, 1000).catch(() => undefined);
  const asked = t.modelAsked(marker);
  const shownAt = painted ?? seen.answerFrame![marker]!;
  return { total: shownAt - seen.enter!, toModel: asked === undefined ? NaN : asked - seen.enter!, byFrame: painted === undefined, cpu, cpuWindow: seenAt - seen.enter! };
}

/** One code-server with only this target's extension: Enter → first character, then window reloads with the panel open. */
async function measureTarget(t: Target): Promise<Figures> {
  const runDir = path.join(RUN_DIR, t.name);
  rmSync(runDir, { recursive: true, force: true });
  const workspace = path.join(runDir, 'workspace');
  cpSync(path.join(ROOT, 'demo-workspace'), workspace, { recursive: true });
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify(t.settings, null, 2));
  const home = path.join(runDir, 'home');
  mkdirSync(home, { recursive: true });
  let server: Awaited<ReturnType<typeof startCodeServer>> | undefined;
  let browser: BrowserContext | undefined;
  try {
    server = await startCodeServer({ runDir: path.join(runDir, 'code-server'), userSettings: QUIET_USER_SETTINGS, installExtensions: [t.extensionDir], env: { HOME: home } });
    browser = await launchChromium(runDir);
    await browser.addInitScript(stamper('top'));
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(30_000);
    await page.goto(server.url(workspace), { timeout: 120_000 });
    await page.locator(t.activityLabels.map((l) => `.activitybar .action-item a[aria-label^="${l}"]`).join(', ')).first().waitFor({ timeout: 120_000 });
    await runCommand(page, t.openCommand);
    await contentFrame(page, t).locator('textarea').first().waitFor({ timeout: 60_000 });
    await contentFrame(page, t).locator('body').evaluate(stamper('panel'));

    // Enter → first character: the first prompt also starts the runtime; the figure is over the warm ones after it.
    await promptToFirstChar(page, t, 'warmup');
    const f: Figures = { reloadToWorkbench: [], toInput: [], toStarted: [], toItems: [], panelStarts: [], timelines: [], firstChar: [], toModel: [], cpu: [], cpuWindow: [], viaModel: [], viaModelToModel: [], byFrame: 0 };
    for (let i = 0; i < PROMPTS; i++) {
      const r = await promptToFirstChar(page, t, `p${i}`);
      f.firstChar.push(r.total);
      f.toModel.push(r.toModel);
      f.cpu.push(r.cpu);
      f.cpuWindow.push(r.cpuWindow);
      if (r.byFrame) f.byFrame++;
    }
    if (t.asksModel) {
      await promptToFirstChar(page, t, 'fmwarmup', ' ask-model'); // the first connection to the model
      for (let i = 0; i < PROMPTS; i++) {
        const r = await promptToFirstChar(page, t, `fm${i}`, ' ask-model');
        f.viaModel.push(r.total);
        f.viaModelToModel.push(r.toModel);
        if (r.byFrame) f.byFrame++;
      }
    }
    await page.waitForTimeout(1500); // the session is saved and remembered

    const logsRoot = path.join(runDir, 'code-server', 'user-data', 'logs');
    for (let i = 0; i < RELOADS; i++) {
      const started = Date.now();
      await page.reload({ timeout: 120_000 });
      const top = await until('the workbench', async () => ((await topStamps(page)).workbench ? topStamps(page) : undefined));
      const chat = await until('the prompt box and the restored transcript after the reload', () => panelMarks(page, t));
      f.reloadToWorkbench.push(top.workbench! - started);
      f.toInput.push(chat.input - top.workbench!);
      f.toStarted.push(chat.started - top.workbench!);
      f.toItems.push(chat.shown - top.workbench!);
      f.timelines.push(hostTimeline(logsRoot, top.workbench!, t.extensionId));
      f.panelStarts.push(chat.documentStart - top.workbench!);
      await page.waitForTimeout(1000);
    }
    return f;
  } catch (e) {
    const page = browser?.pages()[0];
    const shot = path.join(runDir, 'failed.png');
    await page?.screenshot({ path: shot }).catch(() => undefined);
    const stamps = page ? await chatStamps(page, t).catch((err: unknown) => String(err)) : undefined;
    throw new Error(`${t.name}: ${e instanceof Error ? e.message : String(e)} (screenshot ${shot}; panel stamps ${JSON.stringify(stamps)})`, { cause: e });
  } finally {
    await browser?.close().catch(() => undefined);
    server?.stop();
  }
}

export async function runEditorBench(): Promise<void> {
  if (!existsSync(NODE24) || !existsSync(ENTRY) || !existsSync(process.env.CHROMIUM ?? '/usr/bin/chromium')) {
    row('editor bench', 'skipped', 'needs code-server and chromium: bash scripts/vscode-setup.sh, apt-get install chromium');
    return;
  }
  if (!existsSync(path.join(EXTENSION_DIR, 'dist', 'extension.js'))) throw new Error('editor bench: dist/extension.js is missing: build first (node esbuild.mjs)');
  const model = await startModel();
  try {
    const ours = await measureTarget({
      name: 'agentcli',
      extensionDir: EXTENSION_DIR,
      extensionId: 'agentcli.agentcli',
      openCommand: 'agentcli: Open Chat',
      activityLabels: ['agentcli', 'Agent'],
      settings: { 'agentcli.provider': 'ggufserver', 'agentcli.ggufserver.baseUrl': model.origin, 'agentcli.ggufserver.model': 'stub-model' },
      modelAsked: (marker) => model.asked.get(marker),
    });
    const floor = await measureTarget({
      name: 'floor',
      extensionDir: path.join(ROOT, 'bench', 'floor-extension'),
      extensionId: 'bench.floor',
      openCommand: 'Floor: Open Chat',
      activityLabels: ['Floor'],
      settings: { 'floor.modelUrl': model.origin },
      modelAsked: (marker) => model.asked.get(marker),
      asksModel: true,
    });
    report(ours, floor);
  } finally {
    model.proc.kill();
  }
}

/** The model, in a process of its own (bench/editor-model.ts): when each marker's request arrived, on the wall clock. */
async function startModel(): Promise<{ origin: string; asked: Map<string, number>; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'editor-model.ts')], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const asked = new Map<string, number>();
  proc.on('message', (m: { marker: string; at: number }) => asked.set(m.marker, m.at));
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`editor bench: the model stub exited (${code}) before listening`)));
  });
  return { origin, asked, proc };
}

function report(ours: Figures, floor: Figures): void {
  const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`;
  const both = (pick: (f: Figures) => number[]) => `${ms(pick(ours))} (floor ${ms(pick(floor))})`;
  const ready = median(ours.toInput);
  row('editor: reload → workbench shown', both((f) => f.reloadToWorkbench), '(code-server, not ours)');
  row('editor: workbench → prompt box usable', both((f) => f.toInput), `target ≤ 1000 ms: ${verdict(ready <= 1000)}; ours − floor ${(ready - median(floor.toInput)).toFixed(0)} ms`);
  row('editor: workbench → the panel\'s code running', both((f) => f.toStarted), '(an Enter before this is held and sent then)');
  row('editor: workbench → restored transcript shown', ms(ours.toItems));
  const step = (f: Figures, k: keyof ReturnType<typeof hostTimeline>) => `${median(f.timelines.map((t) => t[k])).toFixed(0)} ms`;
  row('  where it goes (after the workbench):', `host up ${step(ours, 'hostStarted')}`, `activation asked ${step(ours, 'activationAsked')} (floor ${step(floor, 'activationAsked')}), our activate() done ${step(ours, 'activated')}`);
  row('  the panel document:', `started ${both((f) => f.panelStarts)}`, `prompt box ${ms(ours.toInput)} (the page carries its code and the box: nothing to fetch)`);
  const enter = median(ours.firstChar);
  row(
    'editor: Enter → first character on screen',
    both((f) => f.firstChar),
    `target ≤ 50 ms: ${verdict(enter <= 50)}; ours − floor ${(enter - median(floor.firstChar)).toFixed(0)} ms (stub answers at once; Enter → request at the model ${ms(ours.toModel)})`,
  );
  row(
    '  a floor that asks the model itself:',
    ms(floor.viaModel),
    `its extension host asks the model and shows what it streams: ours − that ${(enter - median(floor.viaModel)).toFixed(0)} ms (Enter → request at the model ${ms(floor.viaModelToModel)})`,
  );
  const cpu = (f: Figures, role: Role) => median(f.cpu.map((c) => c.get(role)?.run ?? 0));
  const cpuRow = (roles: Role[]) => roles.map((r) => `${r} ${cpu(ours, r).toFixed(0)} (floor ${cpu(floor, r).toFixed(0)})`).join(', ');
  row('  CPU from Enter to the answer seen, ms:', `stretch ${both((f) => f.cpuWindow)}`, cpuRow(['window renderer main thread', 'renderers', 'browser + GPU']));
  row('', '', `${cpuRow(['extension host', 'code-server'])}, runtime ${cpu(ours, 'runtime').toFixed(0)}, model stub ${cpu(ours, 'model stub').toFixed(0)} (per prompt, medians; /proc schedstat)`);
  // Ready to run but no core free: how saturated the 2 cores are while Enter is answered.
  const waited = (f: Figures) => median(f.cpu.map((c) => c.get('window renderer main thread')?.wait ?? 0)).toFixed(0);
  row('  the renderer main thread waited for a core, ms:', `${waited(ours)} (floor ${waited(floor)})`, 'ready to run, but both cores were busy');
  const byFrame = ours.byFrame + floor.byFrame;
  if (byFrame > 0) row('  (stamped by frame)', `${byFrame} of ${ours.firstChar.length + floor.firstChar.length + floor.viaModel.length} answers`, 'no Element Timing entry: stamped at the next frame, up to one frame late');
  row('  the floor:', 'bench/floor-extension', 'a prompt box whose extension echoes each prompt (or asks the model): the editor\'s own cost, in its own code-server');
}

if (require.main === module) {
  runEditorBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
