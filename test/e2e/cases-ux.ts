/**
 * E2E cases: Stop clears pending prompts, prompts while the panel is hidden, panel state restore, selection context,
 * plan mode and yolo in the status bar.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { clickChatButton } from './cases-chat';
import {
  chatView,
  clickToastButton,
  expect,
  openFile,
  readWorkspaceFile,
  requestText,
  runCommand,
  sendPrompt,
  shot,
  toast,
  statusBar,
  waitFor,
  waitForChatRequests,
  chatRequests,
  type E2ECase,
  type E2EContext,
} from './harness';

export const uxCases: E2ECase[] = [
  {
    name: 'Stop aborts the turn and clears its pending permission card',
    run: async (ctx) => {
      ctx.script.push({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo never > stopped.txt' } }] });
      await sendPrompt(ctx.page, 'Run a command I will stop.');
      const view = chatView(ctx.page);
      await view.getByText('echo never', { exact: false }).first().waitFor({ timeout: 30000 });
      await clickChatButton(ctx, /^stop$/i);
      await view.getByRole('button', { name: /allow once/i }).waitFor({ state: 'detached', timeout: 20000 });
      expect(readWorkspaceFile(ctx, 'stopped.txt') === undefined, 'stopped.txt exists: the command ran after Stop');
      await shot(ctx, '20-stopped-clears-pending');
    },
  },
  {
    name: 'a permission request while the panel is hidden shows a notification (Allow once, Deny, More… with every choice); the panel restores its state',
    run: async (ctx) => {
      // the tool call streams slowly, so the request arrives after the panel is hidden
      ctx.script.push(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo via-notification > toast.txt' } }], chunkDelayMs: 600 },
        { text: 'Done via the notification.' },
      );
      await sendPrompt(ctx.page, 'Write toast.txt with a shell command.');
      await runCommand(ctx.page, 'View: Show Explorer');
      await toast(ctx.page, 'The agent wants to run: echo via-notification > toast.txt').waitFor({ timeout: 30000 });
      await shot(ctx, '21-permission-notification');
      await clickToastButton(ctx.page, /echo via-notification/, 'Allow once');
      await waitFor('toast.txt written', () => readWorkspaceFile(ctx, 'toast.txt')?.includes('via-notification'), 30000);
      await runCommand(ctx.page, 'agentcli: Open Chat');
      const view = chatView(ctx.page);
      await view.getByText('Done via the notification.').first().waitFor({ timeout: 30000 });
      // the prompt sent just before hiding is not brought back into the box (the cleared draft was saved at once)
      expect((await view.getByTestId('prompt-input').inputValue()) === '', 'the sent prompt came back into the prompt box after the panel was restored');
      await shot(ctx, '22-panel-restored');
      // the whole conversation is there: the first answer, at the top of the (virtualized) transcript; after a window
      // reload (an earlier case) the panel holds the newest items and pages older ones in as the user scrolls up
      const first = view.getByText('Streaming works', { exact: false }).first();
      for (const until = Date.now() + 20000; !(await first.isVisible()); ) {
        expect(Date.now() < until, 'the first answer did not come back when scrolling to the top of the chat');
        await view.locator('.transcript').evaluate((el) => el.scrollTo(0, 0));
        await ctx.page.waitForTimeout(300);
      }
    },
  },
  {
    name: 'Add Selection to Chat attaches the selected text to the next prompt',
    run: async (ctx) => {
      await openFile(ctx.page, 'src/greet.ts');
      await ctx.page.locator('.monaco-editor .view-lines').first().click();
      await ctx.page.keyboard.press('Control+A');
      await runCommand(ctx.page, 'agentcli: Add Selection to Chat', true);
      const view = chatView(ctx.page);
      await view.locator('.chip', { hasText: 'greet.ts' }).first().waitFor({ timeout: 20000 });
      await shot(ctx, '23-selection-chip');
      const before = chatRequests(ctx.stub).length;
      ctx.script.push({ text: 'I see the greet function.' });
      await sendPrompt(ctx.page, 'Explain the attached code.');
      await view.getByText('I see the greet function.').first().waitFor({ timeout: 30000 });
      const reqs = await waitForChatRequests(ctx, before + 1);
      expect(requestText(reqs[before]!).includes('return `Hello, ${name}!`'), 'the selected code did not reach the model');
    },
  },
  {
    name: 'plan mode and yolo for N minutes show in the status bar; a non-positive timeout is refused',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Toggle Plan Mode');
      await statusBar(ctx.page, 'plan').waitFor({ timeout: 20000 });
      await runCommand(ctx.page, 'agentcli: Turn On Yolo Mode');
      const input = ctx.page.locator('.quick-input-widget input');
      await input.fill('0');
      await ctx.page.locator('.quick-input-widget', { hasText: 'must be positive' }).waitFor({ timeout: 10000 });
      await shot(ctx, '24-yolo-timeout-refused');
      await input.fill('5');
      await ctx.page.keyboard.press('Enter');
      await statusBar(ctx.page, /yolo 5m left/).waitFor({ timeout: 20000 });
      await shot(ctx, '25-plan-and-yolo-status');
      // separate items: clicking plan turns plan mode off and leaves yolo on
      await statusBar(ctx.page, /^\s*plan\s*$/).click();
      await statusBar(ctx.page, /^\s*plan\s*$/).waitFor({ state: 'detached', timeout: 20000 });
      expect(await statusBar(ctx.page, /yolo 5m left/).isVisible(), 'clicking the plan item turned yolo off');
      await statusBar(ctx.page, /yolo 5m left/).click();
      await statusBar(ctx.page, /yolo/).waitFor({ state: 'detached', timeout: 20000 });
    },
  },
];

/** "agentcli: Set API Key…", then the provider's row (its description says whether a key is set). */
export async function setApiKeyFor(ctx: E2EContext, provider: string): Promise<void> {
  await runCommand(ctx.page, 'agentcli: Set API Key');
  const row = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: provider }).first();
  await row.waitFor({ timeout: 10000 });
  await row.click();
}

export function findFile(dir: string, name: string): string | undefined {
  if (!fs.existsSync(dir)) return undefined;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    const hit = e.isDirectory() ? findFile(p, name) : e.name === name ? p : undefined;
    if (hit) return hit;
  }
  return undefined;
}

export const secretCases: E2ECase[] = [
  {
    name: 'an API key set with the command reaches the runtime and never appears in the output channel',
    run: async (ctx) => {
      const key = 'e2e-secret-key-9f3a77c1';
      await setApiKeyFor(ctx, 'vendorapi');
      const input = ctx.page.locator('.quick-input-widget input[type="password"]');
      await input.waitFor({ timeout: 10000 }); // the key is not shown while typed
      await input.fill(key);
      await ctx.page.keyboard.press('Enter');
      await toast(ctx.page, 'Saved the vendorapi API key').waitFor({ timeout: 20000 });
      await shot(ctx, '26-api-key-saved');
      const log = await waitFor('the configure call with the key in the output channel', () => {
        const f = findFile(path.join(path.dirname(ctx.workspace), 'code-server', 'user-data', 'logs'), 'agentcli.log');
        const text = f ? fs.readFileSync(f, 'utf8') : '';
        return /"vendorapi":\{"apiKey":"\*\*\*"/.test(text) ? text : undefined;
      });
      expect(!log.includes(key), 'the API key appears in the agentcli output channel');
      const settings = fs.readFileSync(path.join(ctx.workspace, '.vscode', 'settings.json'), 'utf8');
      expect(!settings.includes(key), 'the API key was written to settings.json');
    },
  },
];
