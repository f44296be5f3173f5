// The editor's figures (not a test), in a real VS Code (code-server + Debian's chromium, own VSC_RUN_DIR): the chat
// panel after a window reload with the panel open (workbench shown → prompt box usable → restored transcript shown),
// and Enter in the panel → the first streamed character on screen. Timed by the browser: an init script in every
// frame stamps the moments with performance.timeOrigin + performance.now() (one wall clock across the frames).
// Runs from `npm run bench` or alone: `node esbuild.mjs && npx tsx bench/editor-bench.ts`.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startOpenAIStub, type StubReply } from '../test/stubs/openai-stub';
import { chatView, runCommand } from '../test/e2e/harness';
import { ENTRY, NODE24, QUIET_USER_SETTINGS, launchChromium, startCodeServer } from '../scripts/vscode-lib';
import { median } from './measure';

const ROOT = path.resolve(__dirname, '..');
const RUN_DIR = path.resolve(process.env.VSC_RUN_DIR ?? path.join(ROOT, '.vscode-test-run', 'editor-bench'));
/** BENCH_EXTENSION_DIR: another checkout of the extension to measure (e.g. an older commit, built). */
const EXTENSION_DIR = path.resolve(process.env.BENCH_EXTENSION_DIR ?? ROOT);
const RELOADS = Number(process.env.BENCH_RELOADS ?? 3);
const PROMPTS = Number(process.env.BENCH_EDITOR_PROMPTS ?? 5);
const row = (what: string, value: string, note = '') => console.log(`${what.padEnd(48)} ${value.padEnd(22)} ${note}`);
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

interface Stamps {
  workbench?: number;
  enter?: number;
  answer?: Record<string, number>;
}

/**
 * Stamps moments in a frame (a string: the page must not see transpiler helpers): in the top frame the workbench (as
 * an init script), in the chat's content frame Enter and the frame that first shows an answer containing a
 * `[[marker]]` (evaluated there once it is shown: VS Code writes the webview's document with document.open(), which
 * drops what an init script set up). Checked when the document changes (a MutationObserver, so in the frame that
 * changed it) and each frame; stamped at the start of the next frame, when the frame that showed it has been drawn.
 * The panel's own performance marks (agentcli:input-ready, agentcli:transcript-shown) time the reload.
 */
const stamper = (where: 'top' | 'panel') => `(() => {
  if (${where === 'top' ? 'window !== window.top' : 'false'}) return;
  const now = () => performance.timeOrigin + performance.now();
  const s = (window.__edperf = { answer: {} });
  const painted = (set) => requestAnimationFrame(() => set(now()));
  const check = () => {
    if (s.workbench === undefined && document.querySelector('.monaco-workbench .part.activitybar')) painted((t) => (s.workbench ??= t));
    const input = document.querySelector('textarea[data-testid="prompt-input"]');
    if (input && !s.listening) {
      s.listening = true;
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) s.enter = now(); }, true);
    }
    for (const m of document.querySelectorAll('[data-testid="assistant-message"]')) {
      const k = /\\[\\[(\\w+)\\]\\]/.exec(m.textContent || '');
      if (k && s.answer[k[1]] === undefined) { s.answer[k[1]] = 0; painted((t) => (s.answer[k[1]] = t)); }
    }
  };
  const loop = () => { check(); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  new MutationObserver(check).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
})();`;

interface PanelMarks {
  input: number;
  shown: number;
  /** The panel document began loading (its navigation start). */
  documentStart: number;
}

/** The panel's performance marks and its document's own timeline as wall-clock times (undefined until both marks are there). */
async function panelMarks(page: Page): Promise<PanelMarks | undefined> {
  // A string: a function would be wrapped with transpiler helpers the page does not have.
  const marks = (await chatView(page).locator('body').evaluate(`(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime;
    return [at('agentcli:input-ready'), at('agentcli:transcript-shown'), 0].map((t) => (t === undefined ? null : performance.timeOrigin + t));
  })()`)) as Array<number | null>;
  const [input, shown, documentStart] = marks;
  if (input == null || shown == null) return undefined;
  return { input, shown, documentStart: documentStart ?? NaN };
}

async function chatStamps(page: Page): Promise<Stamps> {
  return chatView(page).locator('body').evaluate(() => (window as unknown as { __edperf: Stamps }).__edperf);
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

/** Where a reload's time goes, from the extension host's and the extension's own logs (wall clock, like the stamps). */
function hostTimeline(logsRoot: string, workbench: number): { hostStarted: number; activationAsked: number; activated: number } {
  const { host, ours } = newestHostLogs(logsRoot);
  const at = (lines: string[], re: RegExp) => {
    const line = lines.find((l) => re.test(l));
    return line ? Date.parse(line.slice(0, 23).replace(' ', 'T')) - workbench : NaN;
  };
  return {
    hostStarted: at(host, /Extension host with pid \d+ started/),
    activationAsked: at(host, /_doActivateExtension agentcli\.agentcli/),
    activated: at(ours, /activated in [\d.]+ ms/),
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

/** Enter → the answer's first characters on screen, the model answering at once. */
async function promptToFirstChar(page: Page, script: StubReply[], arrivals: number[], marker: string): Promise<{ total: number; toModel: number }> {
  script.push({ text: `[[${marker}]] first words of the answer, then some more.` });
  const box = chatView(page).locator('textarea').first();
  await box.click();
  await box.fill(`bench prompt ${marker}`);
  const before = arrivals.length;
  await box.press('Enter');
  const shown = await until(`the answer ${marker}`, async () => {
    const s = await chatStamps(page);
    return s.answer?.[marker] ? s : undefined;
  }, 30_000);
  const arrived = arrivals[before];
  return { total: shown.answer![marker]! - shown.enter!, toModel: arrived === undefined ? NaN : arrived - shown.enter! };
}

export async function runEditorBench(): Promise<void> {
  if (!existsSync(NODE24) || !existsSync(ENTRY) || !existsSync(process.env.CHROMIUM ?? '/usr/bin/chromium')) {
    row('editor bench', 'skipped', 'needs code-server and chromium: bash scripts/vscode-setup.sh, apt-get install chromium');
    return;
  }
  if (!existsSync(path.join(EXTENSION_DIR, 'dist', 'extension.js'))) throw new Error('editor bench: dist/extension.js is missing: build first (node esbuild.mjs)');
  const script: StubReply[] = [];
  const arrivals: number[] = [];
  const stub = await startOpenAIStub({
    fallback: () => {
      arrivals.push(Date.now());
      return script.shift() ?? { text: 'ok' };
    },
  });
  rmSync(RUN_DIR, { recursive: true, force: true });
  const workspace = path.join(RUN_DIR, 'workspace');
  cpSync(path.join(ROOT, 'demo-workspace'), workspace, { recursive: true });
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  const settings = { 'agentcli.provider': 'ggufserver', 'agentcli.ggufserver.baseUrl': stub.origin, 'agentcli.ggufserver.model': 'stub-model' };
  writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
  const home = path.join(RUN_DIR, 'home');
  mkdirSync(home, { recursive: true });
  let server: Awaited<ReturnType<typeof startCodeServer>> | undefined;
  let browser: BrowserContext | undefined;
  try {
    server = await startCodeServer({ runDir: path.join(RUN_DIR, 'code-server'), userSettings: QUIET_USER_SETTINGS, installExtensions: [EXTENSION_DIR], env: { HOME: home } });
    browser = await launchChromium(RUN_DIR);
    await browser.addInitScript(stamper('top'));
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(30_000);
    await page.goto(server.url(workspace), { timeout: 120_000 });
    await page.locator('.activitybar .action-item a[aria-label^="agentcli"], .activitybar .action-item a[aria-label^="Agent"]').first().waitFor({ timeout: 120_000 });
    await runCommand(page, 'agentcli: Open Chat');
    await chatView(page).locator('textarea').first().waitFor({ timeout: 60_000 });
    await chatView(page).locator('body').evaluate(stamper('panel'));

    // Enter → first character: the first prompt also starts the runtime; the figure is over the warm ones after it.
    await promptToFirstChar(page, script, arrivals, 'warmup');
    const firstChar: number[] = [];
    const toModel: number[] = [];
    for (let i = 0; i < PROMPTS; i++) {
      const r = await promptToFirstChar(page, script, arrivals, `p${i}`);
      firstChar.push(r.total);
      toModel.push(r.toModel);
    }
    await page.waitForTimeout(1500); // the session is saved and remembered

    const toInput: number[] = [];
    const toItems: number[] = [];
    const reloadToWorkbench: number[] = [];
    const timelines: Array<ReturnType<typeof hostTimeline>> = [];
    const panelStarts: number[] = [];
    const logsRoot = path.join(RUN_DIR, 'code-server', 'user-data', 'logs');
    for (let i = 0; i < RELOADS; i++) {
      const started = Date.now();
      await page.reload({ timeout: 120_000 });
      const top = await until('the workbench', async () => ((await topStamps(page)).workbench ? topStamps(page) : undefined));
      const chat = await until('the prompt box and the restored transcript after the reload', () => panelMarks(page));
      reloadToWorkbench.push(top.workbench! - started);
      toInput.push(chat.input - top.workbench!);
      toItems.push(chat.shown - top.workbench!);
      timelines.push(hostTimeline(logsRoot, top.workbench!));
      panelStarts.push(chat.documentStart - top.workbench!);
      await page.waitForTimeout(1000);
    }
    const ready = median(toInput);
    row('editor: reload → workbench shown', `${median(reloadToWorkbench).toFixed(0)} ms`, '(code-server, not ours)');
    row('editor: workbench → prompt box usable', `${ready.toFixed(0)} ms`, `target ≤ 1000 ms: ${verdict(ready <= 1000)}`);
    row('editor: workbench → restored transcript shown', `${median(toItems).toFixed(0)} ms`);
    const step = (k: keyof ReturnType<typeof hostTimeline>) => `${median(timelines.map((t) => t[k])).toFixed(0)} ms`;
    row('  where it goes (after the workbench):', `host up ${step('hostStarted')}`, `our activation asked ${step('activationAsked')}, activate() done ${step('activated')}`);
    row('  the panel document:', `started ${median(panelStarts).toFixed(0)} ms`, `prompt box ${ready.toFixed(0)} ms (the page carries its code: nothing to fetch)`);
    const enter = median(firstChar);
    row('editor: Enter → first character on screen', `${enter.toFixed(0)} ms`, `target ≤ 50 ms: ${verdict(enter <= 50)} (stub answers at once; Enter → request at the model ${median(toModel).toFixed(0)} ms)`);
  } catch (e) {
    const page = browser?.pages()[0];
    const shot = path.join(RUN_DIR, 'failed.png');
    await page?.screenshot({ path: shot }).catch(() => undefined);
    const stamps = page ? await chatStamps(page).catch((err: unknown) => String(err)) : undefined;
    throw new Error(`${e instanceof Error ? e.message : String(e)} (screenshot ${shot}; panel stamps ${JSON.stringify(stamps)})`, { cause: e });
  } finally {
    await browser?.close().catch(() => undefined);
    server?.stop();
    await stub.close();
  }
}

if (require.main === module) {
  runEditorBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
