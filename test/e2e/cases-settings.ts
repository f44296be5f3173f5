/**
 * E2E cases: settings that never break and errors that speak VS Code. A provider switch that is cancelled (or cannot
 * work) leaves .vscode/settings.json and the user settings exactly as they were, also after a window reload; a prompt
 * that fails for a missing setting names it, and its button opens the Settings editor on exactly that setting.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ask } from './cases-editor';
import { reloadWindow } from './cases-history';
import { chatView, editSettings, expect, panelShot, runCommand, sendPrompt, shot, statusBar, toast, waitFor, type E2ECase, type E2EContext } from './harness';

/** The raw text of the workspace and user settings files (undefined: no file). */
function settingsFiles(ctx: E2EContext): Record<string, string | undefined> {
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined);
  return {
    workspace: read(path.join(ctx.workspace, '.vscode', 'settings.json')),
    user: read(path.join(ctx.userDataDir, 'User', 'settings.json')),
  };
}

function expectUnchanged(ctx: E2EContext, before: Record<string, string | undefined>, when: string): void {
  const now = settingsFiles(ctx);
  for (const [scope, text] of Object.entries(before)) {
    expect(now[scope] === text, `${when}: the ${scope} settings changed:\n${String(text)}\n→\n${String(now[scope])}`);
  }
}

async function pickProvider(page: Page, provider: string): Promise<void> {
  await runCommand(page, 'agentcli: Select Provider');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: provider }).first();
  await row.waitFor({ timeout: 20000 });
  await row.click();
}

/** The open input box, found by its title. */
function inputBox(page: Page, title: string | RegExp) {
  return page.locator('.quick-input-widget', { hasText: title }).locator('input').first();
}

/** No terminal command, flag or protocol code anywhere in the panel or the notifications. */
async function expectEditorWording(page: Page): Promise<void> {
  const texts = [await chatView(page).locator('body').innerText(), await page.locator('.notifications-toasts').innerText().catch(() => '')];
  for (const t of texts) expect(!/agentcli config set|--model|--provider|\(code -?\d+\)/.test(t), `terminal wording or a protocol code is shown: ${t}`);
}

/** The settings files before the cancelled switches (checked again after the reload). */
let beforeSwitch: Record<string, string | undefined> | undefined;

export const settingsCases: E2ECase[] = [
  {
    name: 'settings: a cancelled provider switch (address asked inline, then the key) changes no setting',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Open Chat'); // the runtime starts with the panel
      await chatView(ctx.page).locator('textarea').first().waitFor({ timeout: 60000 });
      await statusBar(ctx.page, /ggufserver\//).waitFor({ timeout: 30000 });
      const before = settingsFiles(ctx);
      beforeSwitch = before;
      // serviceai has no default address: the picker asks for it inline and takes only an http(s) URL
      await pickProvider(ctx.page, 'serviceai');
      const address = inputBox(ctx.page, 'agentcli.serviceai.baseUrl');
      await address.waitFor({ timeout: 30000 });
      await address.fill('ftp://example.invalid');
      await ctx.page.locator('.quick-input-widget', { hasText: 'must be an http:// or https:// URL' }).first().waitFor({ timeout: 10000 });
      await shot(ctx, '70-switch-asks-base-url');
      await ctx.page.keyboard.press('Escape');
      await ctx.page.waitForTimeout(1500);
      expectUnchanged(ctx, before, 'cancelling the address');
      // the address is taken (not saved yet); the key is asked next; cancelling it saves neither
      await pickProvider(ctx.page, 'serviceai');
      await address.waitFor({ timeout: 30000 });
      await address.fill(ctx.stub.origin);
      await ctx.page.keyboard.press('Enter');
      const key = ctx.page.locator('.quick-input-widget', { hasText: 'serviceai API key' }).locator('input[type="password"]');
      await key.waitFor({ timeout: 30000 });
      await shot(ctx, '71-switch-asks-key');
      await ctx.page.keyboard.press('Escape');
      await ctx.page.waitForTimeout(1500);
      expectUnchanged(ctx, before, 'cancelling the key');
      await statusBar(ctx.page, /ggufserver\//).waitFor({ timeout: 10000 });
    },
  },
  {
    name: 'settings: after the cancelled switch and a window reload, the settings are unchanged and the old provider still answers',
    run: async (ctx) => {
      const before = beforeSwitch ?? settingsFiles(ctx);
      await reloadWindow(ctx);
      await statusBar(ctx.page, /ggufserver\//).waitFor({ timeout: 60000 });
      await ask(ctx, 'Still answering after the cancelled switch?', 'Still answering with the old provider.');
      expectUnchanged(ctx, before, 'after the reload');
      await panelShot(ctx, '72-old-provider-after-reload');
    },
  },
  {
    name: 'settings: a prompt failing for a missing address names agentcli.serviceai.baseUrl; Open Settings opens exactly that setting',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Open Chat');
      await chatView(ctx.page).locator('textarea').first().waitFor({ timeout: 60000 });
      editSettings(ctx, { 'agentcli.provider': 'serviceai' });
      await statusBar(ctx.page, /serviceai/).waitFor({ timeout: 30000 });
      await sendPrompt(ctx.page, 'Answer without an address.');
      const view = chatView(ctx.page);
      const card = view.getByTestId('error-message').filter({ hasText: 'agentcli.serviceai.baseUrl is not set' }).last();
      await card.waitFor({ timeout: 30000 });
      await card.getByTestId('error-action-selectProvider').waitFor();
      await toast(ctx.page, 'agentcli.serviceai.baseUrl is not set').locator('.monaco-button', { hasText: 'Open Settings' }).waitFor({ timeout: 20000 });
      await expectEditorWording(ctx.page);
      await shot(ctx, '73-missing-base-url-error');
      await card.getByTestId('error-action-openSetting').click();
      const settingsEditor = ctx.page.locator('.settings-editor');
      await settingsEditor.waitFor({ timeout: 20000 });
      await settingsEditor.locator('.settings-count-widget', { hasText: '1 Setting Found' }).waitFor({ timeout: 20000 });
      const row = settingsEditor.locator('.setting-item-contents').first();
      await row.locator('.setting-item-category', { hasText: /Serviceai/i }).waitFor({ timeout: 10000 });
      await row.locator('.setting-item-label', { hasText: 'Base Url' }).waitFor();
      const query = await settingsEditor.locator('.settings-header .view-lines').first().innerText();
      expect(query.replace(/\s/g, ' ').includes('@id:agentcli.serviceai.baseUrl'), `the Settings editor is filtered by "${query}"`);
      await shot(ctx, '74-open-settings-exact-setting');
      await runCommand(ctx.page, 'View: Close Editor');
      editSettings(ctx, { 'agentcli.provider': 'ggufserver' });
      await statusBar(ctx.page, /ggufserver\/stub-model/).waitFor({ timeout: 30000 });
      await runCommand(ctx.page, 'Notifications: Clear All Notifications');
      await waitFor('the settings file back to ggufserver', () => fs.readFileSync(path.join(ctx.workspace, '.vscode', 'settings.json'), 'utf8').includes('"agentcli.provider": "ggufserver"'));
    },
  },
];
