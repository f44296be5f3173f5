/**
 * E2E cases: switching the provider from the palette, and the panel's manual Restart once the automatic restarts
 * after a crash are used up.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ask, runtimePid } from './cases-editor';
import { findFile, setApiKeyFor } from './cases-ux';
import {
  chatRequests,
  chatView,
  clickToastButton,
  editMachineSettings,
  editSettings,
  expect,
  runCommand,
  sendPrompt,
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

function userSettings(ctx: E2EContext): Record<string, unknown> {
  const file = path.join(ctx.userDataDir, 'User', 'settings.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
}

async function pickRow(ctx: E2EContext, text: string): Promise<void> {
  const row = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ timeout: 20000 });
  await row.click();
}

async function setVendorKey(ctx: E2EContext, key: string): Promise<void> {
  await setApiKeyFor(ctx, 'vendorapi');
  const input = ctx.page.locator('.quick-input-widget input[type="password"]');
  await input.waitFor({ timeout: 10000 });
  await input.fill(key);
  await ctx.page.keyboard.press('Enter');
  await toast(ctx.page, 'Saved the vendorapi API key').waitFor({ timeout: 20000 });
}

export const runtimeCases: E2ECase[] = [
  {
    name: 'a prompt without the provider\'s API key names the key and offers Set API Key… (not the runtime\'s terminal command)',
    run: async (ctx) => {
      // an address, so the key is what is missing (the run fails before any request)
      editSettings(ctx, { 'agentcli.provider': 'serviceai', 'agentcli.serviceai.baseUrl': ctx.stub.origin });
      await statusBar(ctx.page, 'serviceai/').waitFor({ timeout: 20000 });
      await sendPrompt(ctx.page, 'Answer without a key.');
      const message = "No API key for serviceai. Set one with 'agentcli: Set API Key…'.";
      await toast(ctx.page, message).waitFor({ timeout: 30000 });
      const view = chatView(ctx.page);
      await view.getByText('No API key for serviceai.').first().waitFor({ timeout: 20000 });
      await view.getByText("Set one with 'agentcli: Set API Key…'.").first().waitFor();
      expect((await view.getByText('agentcli config set').count()) === 0, 'the panel shows the runtime\'s terminal command');
      await shot(ctx, '26a-missing-api-key');
      await clickToastButton(ctx.page, message, 'Set API Key…');
      // the button goes straight to the serviceai key
      await ctx.page.locator('.quick-input-widget', { hasText: 'serviceai API key' }).waitFor({ timeout: 10000 });
      await ctx.page.locator('.quick-input-widget input[type="password"]').waitFor();
      await ctx.page.keyboard.press('Escape');
      editSettings(ctx, { 'agentcli.provider': 'ggufserver', 'agentcli.serviceai.baseUrl': null });
      await statusBar(ctx.page, 'ggufserver/').waitFor({ timeout: 20000 }); // the model an earlier case chose
    },
  },
  {
    name: 'Select Provider from the palette switches provider and model: status bar, next request, its key',
    run: async (ctx) => {
      const key = 'e2e-provider-key-51c0';
      // vendorapi has no model set yet: the picker must still list its models (the provider picker used to stick)
      editSettings(ctx, { 'agentcli.vendorapi.baseUrl': ctx.stub.url, 'agentcli.vendorapi.model': null });
      expect(workspaceSettings(ctx)['agentcli.vendorapi.model'] === undefined, 'vendorapi.model is set before the case');
      ctx.stub.setModels(['stub-model', 'stub-vendor-model']);
      await setVendorKey(ctx, key);
      await runCommand(ctx.page, 'agentcli: Select Provider');
      await ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'vendorapi' }).first().waitFor({ timeout: 20000 });
      await shot(ctx, '27-select-provider-pick');
      const vendorRow = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'vendorapi' }).first();
      expect((await vendorRow.innerText()).includes('key set'), `the vendorapi row does not say its key is set: ${await vendorRow.innerText()}`);
      await pickRow(ctx, 'vendorapi');
      // the model list of the new provider follows; nothing is saved before a model is chosen
      await ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'stub-vendor-model' }).first().waitFor({ timeout: 20000 });
      // no model set: the provider's default model is the current one (vendorapi.model defaults to the flagship gpt-4.1)
      await ctx.page.locator('.quick-input-widget input[placeholder*="current: gpt-4.1"]').first().waitFor({ timeout: 20000 });
      expect(workspaceSettings(ctx)['agentcli.provider'] !== 'vendorapi', 'the provider was saved before a model was chosen');
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
      // saved where it takes effect: the provider in the workspace (which sets it), the model in the user settings
      const saved = workspaceSettings(ctx);
      const model = await waitFor('vendorapi.model saved to the user settings', () => userSettings(ctx)['agentcli.vendorapi.model']);
      expect(saved['agentcli.provider'] === 'vendorapi' && model === 'stub-vendor-model',
        `settings hold ${String(saved['agentcli.provider'])}/${String(model)}`);
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
    name: 'Apply Local Runner Preset shows each preset\'s values and writes the chosen one to the settings, which reach the runtime',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Apply Local Runner Preset');
      for (const name of ['8gb-cpu', '16gb-gpu', '32gb-gpu']) {
        await ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 20000 });
      }
      const row = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: '32gb-gpu' }).first();
      const text = await row.innerText();
      expect(text.includes('numCtx 8192') && text.includes('keepAlive 30m'), `the 32gb-gpu row does not show its values: ${text}`);
      await shot(ctx, '32-local-runner-presets');
      await row.click();
      await toast(ctx.page, 'Applied the local runner preset 32gb-gpu').waitFor({ timeout: 20000 });
      await waitFor('the preset saved to the user settings', () => {
        const s = userSettings(ctx);
        return s['agentcli.localrunner.numCtx'] === 8192 && s['agentcli.localrunner.keepAlive'] === '30m';
      });
      // mirrored like any settings edit: a configure call carrying the values (the output channel logs the traffic)
      await waitFor('a configure call with the preset\'s values', () => {
        const f = findFile(path.join(ctx.userDataDir, 'logs'), 'agentcli.log');
        const sections = f ? [...fs.readFileSync(f, 'utf8').matchAll(/"localrunner":\{([^}]*)\}/g)].map((m) => m[1]!) : [];
        return sections.some((s) => s.includes('"numCtx":8192') && s.includes('"keepAlive":"30m"'));
      });
      await shot(ctx, '33-local-runner-preset-applied');
    },
  },
  {
    name: 'after a crash whose automatic restarts all fail, the panel\'s Restart button brings the runtime back',
    run: async (ctx) => {
      const broken = path.join(path.dirname(ctx.workspace), 'broken-runtime.js');
      fs.writeFileSync(broken, "process.stderr.write('e2e: this runtime build is broken\\n');\nprocess.exit(3);\n");
      // agentcli.cliPath is machine-scoped: a workspace naming a program must be ignored (a restart keeps the bundled runtime)
      const first = await waitFor('the runtime process', () => runtimePid(ctx.workspace));
      editSettings(ctx, { 'agentcli.cliPath': broken });
      await ctx.page.waitForTimeout(2500); // the setting would have reached the extension
      await runCommand(ctx.page, 'agentcli: Restart Runtime');
      const pid = await waitFor('the bundled runtime after a restart with a workspace cliPath', () => {
        const p = runtimePid(ctx.workspace);
        return p !== undefined && p !== first ? p : undefined;
      }, 30000);
      editSettings(ctx, { 'agentcli.cliPath': null });
      await runCommand(ctx.page, 'Notifications: Clear All Notifications'); // the toast below must come from the next edit
      // where a machine setting is honoured with a remote extension host: the remote Machine settings
      editMachineSettings(ctx, { 'agentcli.cliPath': broken });
      await toast(ctx.page, /runtime path changed/).waitFor({ timeout: 20000 }); // offered, not taken: the crash comes first
      process.kill(pid, 'SIGKILL');
      const banner = chatView(ctx.page).getByTestId('runtime-banner');
      // five automatic attempts with backoff (1+2+4+8+16 s), each failing at once
      await banner.filter({ hasText: /Automatic restarts are used up/ }).waitFor({ timeout: 60000 });
      const restart = banner.getByTestId('restart-runtime');
      await restart.waitFor();
      expect(runtimePid(ctx.workspace) === undefined, 'a runtime process is running although every restart failed');
      await shot(ctx, '30-restarts-used-up');
      editMachineSettings(ctx, { 'agentcli.cliPath': null });
      await ctx.page.waitForTimeout(2500); // the setting reaches the extension
      await restart.click();
      await banner.waitFor({ state: 'hidden', timeout: 30000 });
      const fresh = await waitFor('a new runtime process', () => runtimePid(ctx.workspace), 30000);
      expect(fresh !== pid, 'the old runtime process is still listed');
      await ask(ctx, 'Back after the manual restart?', 'Back after the manual restart.');
      await shot(ctx, '31-manual-restart-recovered');
    },
  },
  {
    name: 'agentcli.debug off stops logging the protocol traffic in the output channel; on again, it logs it again',
    run: async (ctx) => {
      const log = () => {
        const f = findFile(path.join(ctx.userDataDir, 'logs'), 'agentcli.log');
        return f ? fs.readFileSync(f, 'utf8') : '';
      };
      await runCommand(ctx.page, 'agentcli: Open Chat');
      await ask(ctx, 'Logged while debug is on?', 'Logged, debug on.');
      await waitFor('the prompt logged as protocol traffic', () => log().includes('Logged while debug is on?'));
      editSettings(ctx, { 'agentcli.debug': false });
      await ctx.page.waitForTimeout(2500); // the setting would have reached the extension
      await ask(ctx, 'Quiet while debug is off?', 'Quiet, debug off.');
      await ctx.page.waitForTimeout(1500); // the channel writes its file a little later
      // neither the extension's trace nor the runtime's request log (it was started with debug on) shows it
      expect(!log().includes('Quiet while debug is off?'), 'a prompt sent with agentcli.debug off was logged');
      editSettings(ctx, { 'agentcli.debug': true });
      await ctx.page.waitForTimeout(2500);
      await ask(ctx, 'Logged again?', 'Logged again, debug on.');
      await waitFor('the prompt logged once debug is on again', () => log().includes('Logged again?'));
    },
  },
];
