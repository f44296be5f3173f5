/**
 * What every end-to-end case gets: the page showing the real VS Code workbench (code-server), the chat webview,
 * the stub model server, the fresh workspace copy, and helpers for the command palette, notifications and
 * screenshots (test-output/e2e/<state>.png).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { OpenAIStub, RecordedRequest, StubReply } from '../stubs/openai-stub';

export interface E2EContext {
  page: Page;
  stub: OpenAIStub;
  /** Replies the stub gives to the next chat requests, in order (emptied before each case). */
  script: StubReply[];
  workspace: string;
  /** code-server's --user-data-dir (User/ and Machine/ settings, logs). */
  userDataDir: string;
  shotsDir: string;
  /** Every state screenshot taken, in order. */
  shots: string[];
  log: (line: string) => void;
}

export interface E2ECase {
  name: string;
  run: (ctx: E2EContext) => Promise<void>;
  /** A longer bound than the default (E2E_CASE_TIMEOUT_MS, 2 minutes) for a case that walks through many runs. */
  timeoutMs?: number;
}

export class E2EFailure extends Error {}

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new E2EFailure(message);
}

export async function shot(ctx: E2EContext, state: string): Promise<void> {
  await ctx.page.waitForTimeout(400); // toasts and webview paints settle
  const file = path.join(ctx.shotsDir, `${state}.png`);
  await ctx.page.screenshot({ path: file });
  ctx.shots.push(state);
}

/** A closer look at the side bar holding the chat panel (test-output/e2e/<state>.png). */
export async function panelShot(ctx: E2EContext, state: string): Promise<void> {
  await ctx.page.waitForTimeout(400);
  await ctx.page.locator('.part.sidebar').screenshot({ path: path.join(ctx.shotsDir, `${state}.png`) });
  ctx.shots.push(state);
}

/** Merges `patch` into the workspace's .vscode/settings.json (a `null` value removes the key). */
export function editSettings(ctx: E2EContext, patch: Record<string, unknown>): void {
  const file = path.join(ctx.workspace, '.vscode', 'settings.json');
  const merged = { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>), ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === null) delete merged[k];
  fs.writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
}

/**
 * Merges `patch` into the remote Machine settings (<user-data-dir>/Machine/settings.json; a `null` value removes the
 * key). With a remote extension host (code-server) this is the only file VS Code reads `machine`-scoped settings such
 * as `agentcli.cliPath` from: the workspace may not set them, and the browser side's User settings are filtered to
 * the non-machine scopes.
 */
export function editMachineSettings(ctx: E2EContext, patch: Record<string, unknown>): void {
  const file = path.join(ctx.userDataDir, 'Machine', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const current = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const merged = { ...current, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === null) delete merged[k];
  fs.writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
}

/** A webview view of an extension (ours by default): two nested iframes (VS Code's host frame, then the content frame). */
export function chatView(page: Page, extensionId = 'agentcli.agentcli'): FrameLocator {
  return page.frameLocator(`iframe.webview.ready[src*="${extensionId}"]`).frameLocator('#active-frame');
}

/** How well a quick-input row's label fits: 3 exact (an ellipsis aside), 2 starts with it, 1 contains it, 0 not at all. */
function fit(label: string, wanted: string): number {
  const l = label.trim().replace(/…$/, '');
  const w = wanted.trim().replace(/…$/, '');
  return l === w ? 3 : l.startsWith(w) ? 2 : l.includes(w) ? 1 : 0;
}

/**
 * Opens a quick input with `key` (F1, Ctrl+P), types `query` and picks the row whose label fits `rowText` best
 * (exactly, else starting with it): by Enter when it is the focused row, else by a click. The choice must hold for
 * two looks 150 ms apart, so a row of the list shown before the query applied (recently opened files, the last
 * commands) is not taken for the answer. Tries again when the input could not be used: a modal dialog made the
 * workbench inert for a moment, or the key went to a webview that had the focus. A dialog still open is named.
 */
async function quickInputPick(page: Page, key: string, query: string, rowText: string, escapeFirst: boolean, tries = 3): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  const best = async (): Promise<{ index: string; focused: boolean } | undefined> => {
    const seen = await rows.evaluateAll((els) =>
      els.map((el) => ({ index: el.getAttribute('data-index') ?? '', label: el.querySelector('.label-name')?.textContent ?? '', focused: el.classList.contains('focused') })),
    );
    let top: (typeof seen)[number] | undefined;
    for (const r of seen) if (fit(r.label, rowText) > (top ? fit(top.label, rowText) : 0)) top = r;
    return top && { index: top.index, focused: top.focused };
  };
  for (let attempt = 1; ; attempt++) {
    try {
      if (escapeFirst || attempt > 1) await page.keyboard.press('Escape');
      await page.keyboard.press(key);
      await input.waitFor({ timeout: 10000 });
      await input.fill(query, { timeout: 5000 });
      let chosen: { index: string; focused: boolean } | undefined;
      for (const until = Date.now() + 10000; ; ) {
        const a = await best();
        await page.waitForTimeout(150);
        const b = await best();
        if (a && b && a.index === b.index) {
          chosen = b;
          break;
        }
        if (Date.now() > until) throw new E2EFailure(`no row '${rowText}' in the list`);
      }
      if (chosen.focused) await page.keyboard.press('Enter');
      else await rows.and(page.locator(`[data-index="${chosen.index}"]`)).first().click({ timeout: 5000 });
      return;
    } catch (e) {
      const dialog = page.locator('.monaco-dialog-box');
      const open = (await dialog.count()) > 0 ? await dialog.first().innerText().catch(() => '') : '';
      if (attempt >= tries) throw new E2EFailure(`${key} '${query}' did not reach '${rowText}' in ${tries} ${tries === 1 ? 'try' : 'tries'}${open ? ` (a dialog is open: ${open.replace(/\s+/g, ' ')})` : ''}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }
}

/** Runs a command from the palette. `keepSelection`: skip the leading Escape (it would clear an editor selection). */
export async function runCommand(page: Page, title: string, keepSelection = false): Promise<void> {
  await quickInputPick(page, 'F1', `>${title}`, title, !keepSelection);
}

/** Runs a command that may be hidden right now (its `when` clause is false): one try; whether it ran. */
export async function tryCommand(page: Page, title: string): Promise<boolean> {
  return quickInputPick(page, 'F1', `>${title}`, title, true, 1).then(
    () => true,
    () => false,
  );
}

export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
}

export async function clickToastButton(page: Page, text: string | RegExp, button: string): Promise<void> {
  const t = toast(page, text);
  await t.waitFor({ timeout: 20000 });
  await t.locator('.monaco-button', { hasText: button }).first().click();
}

export function statusBar(page: Page, text: string | RegExp): Locator {
  return page.locator('.statusbar-item', { hasText: text }).first();
}

/** Opens a workspace file in an editor via Quick Open. */
export async function openFile(page: Page, relPath: string): Promise<void> {
  // visible: a tab of the same name may sit in a hidden editor group left by an earlier case
  const tab = page.locator('.tab', { hasText: path.basename(relPath) }).filter({ visible: true }).first();
  for (let attempt = 1; ; attempt++) {
    await quickInputPick(page, 'Control+P', relPath, path.basename(relPath), true);
    try {
      await tab.waitFor({ timeout: 10000 });
      return;
    } catch (e) {
      if (attempt >= 2) throw e;
    }
  }
}

/** Chat-completion requests the runtime sent to the stub so far. */
export function chatRequests(stub: OpenAIStub): RecordedRequest[] {
  return stub.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > until) throw new E2EFailure(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until the stub has received `count` chat requests in total. */
export function waitForChatRequests(ctx: E2EContext, count: number, timeoutMs = 30000): Promise<RecordedRequest[]> {
  return waitFor(`${count} chat request(s) at the stub`, () => {
    const r = chatRequests(ctx.stub);
    return r.length >= count ? r : undefined;
  }, timeoutMs);
}

/** Text of all messages of a request (for checking what the model was given, e.g. a tool result). */
export function requestText(req: RecordedRequest): string {
  const messages = (req.body?.messages ?? []) as { role: string; content?: unknown }[];
  return messages.map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`).join('\n');
}

export function readWorkspaceFile(ctx: E2EContext, rel: string): string | undefined {
  const f = path.join(ctx.workspace, rel);
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined;
}

/** Types a prompt into the chat box and sends it with Enter. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  const box = chatView(page).locator('textarea').first();
  await box.waitFor({ timeout: 20000 });
  await box.click();
  await box.fill(text);
  await box.press('Enter');
}
