/**
 * E2E cases: switching the provider from the palette, and the panel's manual Restart once the automatic restarts
 * after a crash are used up.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ask, runtimePid } from './cases-editor';
import {
  chatRequests,
  chatView,
  editSettings,
  expect,
  runCommand,
  shot,
  statusBar,
  toast,
  waitFor,
  waitForChatRequests,
  type E2ECase,
  type E2EContext,
} from './harness';

function workspaceSettings(ctx: E2EContext): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(ctx.workspace, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
}

async function pickRow(ctx: E2EContext, text: string): Promise<void> {
  const row = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ timeout: 20000 });
  await row.click();
}

async function setVendorKey(ctx: E2EContext, key: string): Promise<void> {
  await runCommand(ctx.page, 'agentcli: Set API Key (vendorapi)');
  const input = ctx.page.locator('.quick-input-widget input[type="password"]');
  await input.waitFor({ timeout: 10000 });
  await input.fill(key);
  await ctx.page.keyboard.press('Enter');
  await toast(ctx.page, /vendorapi API key was saved/).waitFor({ timeout: 20000 });
}

export const runtimeCases: E2ECase[] = [
  {
    name: 'Select Provider from the palette switches provider and model: status bar, next request, its key',
    run: async (ctx) => {
      const key = 'e2e-provider-key-51c0';
      // vendorapi.model is preset: with it unset the runtime's listModels refuses to list ("vendorapi.model is not
      // set"), so the picker could not offer the models to choose from (reported; a runtime fix)
      editSettings(ctx, { 'agentcli.vendorapi.baseUrl': ctx.stub.url, 'agentcli.vendorapi.model': 'stub-model' });
      ctx.stub.setModels(['stub-model', 'stub-vendor-model']);
      await setVendorKey(ctx, key);
      await runCommand(ctx.page, 'agentcli: Select Provider');
      await ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'vendorapi' }).first().waitFor({ timeout: 20000 });
      await shot(ctx, '27-select-provider-pick');
      await pickRow(ctx, 'vendorapi');
      // the model list of the new provider follows
      await ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'stub-vendor-model' }).first().waitFor({ timeout: 20000 });
      await shot(ctx, '28-select-provider-models');
      await pickRow(ctx, 'stub-vendor-model');
      await statusBar(ctx.page, 'vendorapi/stub-vendor-model').waitFor({ timeout: 20000 });
      await chatView(ctx.page).getByTestId('model-button').filter({ hasText: 'vendorapi · stub-vendor-model' }).waitFor({ timeout: 20000 });
      await shot(ctx, '29-provider-selected');
      const before = chatRequests(ctx.stub).length;
      await ask(ctx, 'Which provider answers?', 'Answered through vendorapi.');
      const req = (await waitForChatRequests(ctx, before + 1))[before]!;
      expect(req.body?.model === 'stub-vendor-model', `the next request used model ${String(req.body?.model)}`);
      expect(req.headers.authorization === `Bearer ${key}`, 'the next request did not carry the vendorapi key from SecretStorage');
      const saved = workspaceSettings(ctx);
      expect(saved['agentcli.provider'] === 'vendorapi' && saved['agentcli.vendorapi.model'] === 'stub-vendor-model',
        `settings.json holds ${String(saved['agentcli.provider'])}/${String(saved['agentcli.vendorapi.model'])}`);
      // back to the provider the other cases use
      await runCommand(ctx.page, 'agentcli: Select Provider');
      await pickRow(ctx, 'ggufserver');
      await pickRow(ctx, 'stub-model');
      await statusBar(ctx.page, /ggufserver\/stub-model$/).waitFor({ timeout: 20000 });
      // the choice is saved to the settings (and the next case may edit the file only after that write)
      await waitFor('the provider and model saved to settings.json', () => {
        const now = workspaceSettings(ctx);
        return now['agentcli.provider'] === 'ggufserver' && now['agentcli.ggufserver.model'] === 'stub-model';
      });
    },
  },
  {
    name: 'after a crash whose automatic restarts all fail, the panel\'s Restart button brings the runtime back',
    run: async (ctx) => {
      const broken = path.join(path.dirname(ctx.workspace), 'broken-runtime.js');
      fs.writeFileSync(broken, "process.stderr.write('e2e: this runtime build is broken\\n');\nprocess.exit(3);\n");
      const pid = await waitFor('the runtime process', () => runtimePid(ctx.workspace));
      editSettings(ctx, { 'agentcli.cliPath': broken });
      await toast(ctx.page, /runtime path changed/).waitFor({ timeout: 20000 }); // offered, not taken: the crash comes first
      process.kill(pid, 'SIGKILL');
      const banner = chatView(ctx.page).getByTestId('runtime-banner');
      // five automatic attempts with backoff (1+2+4+8+16 s), each failing at once
      await banner.filter({ hasText: /automatic restarts used up/ }).waitFor({ timeout: 60000 });
      const restart = banner.getByTestId('restart-runtime');
      await restart.waitFor();
      expect(runtimePid(ctx.workspace) === undefined, 'a runtime process is running although every restart failed');
      await shot(ctx, '30-restarts-used-up');
      editSettings(ctx, { 'agentcli.cliPath': null });
      await ctx.page.waitForTimeout(2500); // the setting reaches the extension
      await restart.click();
      await banner.waitFor({ state: 'hidden', timeout: 30000 });
      const fresh = await waitFor('a new runtime process', () => runtimePid(ctx.workspace), 30000);
      expect(fresh !== pid, 'the old runtime process is still listed');
      await ask(ctx, 'Back after the manual restart?', 'Back after the manual restart.');
      await shot(ctx, '31-manual-restart-recovered');
    },
  },
];
