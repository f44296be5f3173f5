/**
 * The built chat panel in a real browser (Debian's chromium via playwright-core) with a fake VS Code API that records
 * what the panel posts: the setup the panel's browser tests share. Call `usePanelPage()` inside a `describe`.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { requirePrerequisite } from '../helpers/prerequisite';
import { makeTempDir } from '../helpers/temp-dir';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Set to a folder to keep a screenshot of each checked state there (to look at the result). */
const SHOTS = process.env.UI_SHOTS;

export const ids = { sessionId: 's1', runId: 'r1', turnId: 't1' };
export const state = { provider: 'localrunner', model: 'small-model', permissionMode: 'interactive', planMode: false, yolo: { active: false }, running: false };
export const tid = (id: string) => `[data-testid="${id}"]`;
export type Posted = { type: string; [k: string]: unknown };

export interface PanelPage {
  readonly page: Page;
  /** Deliver a message from the "extension". */
  send(msg: unknown): Promise<void>;
  /** Everything the panel posted so far. */
  posted(): Promise<Posted[]>;
  /** A screenshot to look at (only with UI_SHOTS set). */
  shot(name: string): Promise<void>;
  box(selector: string): Promise<{ x: number; y: number; width: number; height: number }>;
}

export interface PanelPageOptions {
  /** The page's HTML given the bundle's text (default: a test page that loads the bundle as webview.js). */
  html?: (bundle: string) => string;
  /** Script run in the page before its own, after the fake VS Code API is set up. */
  initScript?: string;
  /** What the page must reach before each test (default: the panel posted `ready`). */
  loaded?: (page: Page) => Promise<unknown>;
}

export function usePanelPage(options: PanelPageOptions = {}): PanelPage {
  let dir: string;
  let browser: Browser;
  let page: Page;

  before(async function () {
    requirePrerequisite(this, existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium)`);
    dir = makeTempDir('webview-ui-');
    const built = await esbuild.build({ bundle: true, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: ['webview-ui/src/main.ts'], write: false, logLevel: 'error' });
    const bundle = built.outputFiles[0]!.text;
    writeFileSync(join(dir, 'webview.js'), bundle);
    writeFileSync(join(dir, 'chat.css'), readFileSync('media/webview/chat.css'));
    // A few of VS Code's Light Modern theme colors, so screenshots look like the panel (VS Code sets these itself).
    writeFileSync(join(dir, 'theme.css'), `:root { --vscode-font-family: sans-serif; --vscode-font-size: 13px; --vscode-foreground: #3b3b3b;
--vscode-sideBar-background: #f8f8f8; --vscode-editor-background: #fff; --vscode-descriptionForeground: #6f6f6f;
--vscode-button-background: #005fb8; --vscode-button-foreground: #fff; --vscode-button-secondaryBackground: #e5e5e5;
--vscode-button-secondaryForeground: #3b3b3b; --vscode-button-border: #0000001a; --vscode-focusBorder: #005fb8;
--vscode-textLink-foreground: #005fb8; --vscode-badge-background: #cccccc; --vscode-badge-foreground: #3b3b3b;
--vscode-input-background: #fff; --vscode-input-border: #cecece; --vscode-input-placeholderForeground: #767676;
--vscode-widget-border: #e5e5e5; --vscode-textCodeBlock-background: #f0f0f0; --vscode-errorForeground: #f85149;
--vscode-gitDecoration-addedResourceForeground: #587c0c; --vscode-editor-font-family: monospace; }`);
    // The same kind of CSP the extension sets: no inline script, no remote content.
    writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src file:; script-src file: 'nonce-test'; img-src file: data:;">
<link rel="stylesheet" href="theme.css"><link rel="stylesheet" href="chat.css"></head><body><div id="root"></div>
<script nonce="test" src="webview.js"></script></body></html>`);
    if (options.html) writeFileSync(join(dir, 'index.html'), options.html(bundle));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--allow-file-access-from-files'] });
  });

  after(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 420, height: 700 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // A string, not a function: the test transpiler would wrap functions with helpers that do not exist in the page.
    await page.addInitScript(`
      window.__posted = [];
      window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => window.__state, setState: (s) => { window.__state = s; } });
      ${options.initScript ?? ''}
    `);
    await page.goto(`file://${join(dir, 'index.html')}`);
    await (options.loaded ?? ((p: Page) => p.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'))))(page);
    assert.deepEqual(errors, []);
  });

  afterEach(async () => page?.close());

  return {
    get page() {
      return page;
    },
    send: async (msg) => {
      await page.evaluate((m) => window.postMessage(m, '*'), msg);
    },
    posted: () => page.evaluate(() => (window as unknown as { __posted: Posted[] }).__posted),
    shot: async (name) => {
      if (SHOTS === undefined) return;
      await page.waitForTimeout(50); // the transcript renders in the next animation frame
      await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    },
    box: async (selector) => {
      const b = await page.locator(selector).first().boundingBox();
      assert.ok(b !== null, `${selector} is not shown`);
      return b;
    },
  };
}
