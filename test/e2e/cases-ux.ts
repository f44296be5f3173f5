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
    name: 'Stop shows as Enter is pressed, and a Stop pressed at once ends the run before its answer is written',
    run: async (ctx) => {
      ctx.script.push({ text: 'Quokkaslow answers word by word by word by word by word by word by word by word.', chunkDelayMs: 500 });
      const view = chatView(ctx.page);
      const box = view.locator('textarea').first();
      await box.waitFor({ timeout: 20000 });
      await box.click();
      await box.fill('Answer slowly; I will stop you at once.');
      await box.press('Enter');
      // no waiting for the runtime: the button is there from the keypress on
      await view.getByRole('button', { name: /^stop$/i }).last().click({ timeout: 5000 });
      await view.getByText('Stopped.', { exact: true }).last().waitFor({ timeout: 20000 });
      await view.getByRole('button', { name: /^send$/i }).last().waitFor({ timeout: 20000 });
      const shown = (await view.locator('[data-testid="assistant-message"]').allTextContents()).join(' ');
      expect(!shown.includes('word by word by word by word by word'), `the stopped answer kept streaming: ${shown.slice(-200)}`);
    },
  },
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
      // the chat's oldest prompt (earlier cases decide which chat this is): it must be there again after the restore
      const view = chatView(ctx.page);
      const oldestPrompt = async (): Promise<string> => {
        const atTop = async () => (await view.locator('.transcript').evaluate((el) => el.scrollTop)) === 0;
        for (let i = 0; i < 30; i++) {
          await view.locator('.transcript').evaluate((el) => el.scrollTo(0, 0));
          // older items page in near the top and push the view down: the top is reached when it stays there
          await ctx.page.waitForTimeout(400);
          if (!(await atTop())) continue;
          await ctx.page.waitForTimeout(600);
          if (await atTop()) break;
        }
        return (await view.getByTestId('user-message').first().innerText()).trim();
      };
      const oldest = await oldestPrompt();
      await sendPrompt(ctx.page, 'Write toast.txt with a shell command.');
      await runCommand(ctx.page, 'View: Show Explorer');
      await toast(ctx.page, 'The agent wants to run: echo via-notification > toast.txt').waitFor({ timeout: 30000 });
      await shot(ctx, '21-permission-notification');
      await clickToastButton(ctx.page, /echo via-notification/, 'Allow once');
      await waitFor('toast.txt written', () => readWorkspaceFile(ctx, 'toast.txt')?.includes('via-notification'), 30000);
      await runCommand(ctx.page, 'agentcli: Open Chat');
      await view.getByText('Done via the notification.').first().waitFor({ timeout: 30000 });
      // the prompt sent just before hiding is not brought back into the box (the cleared draft was saved at once)
      expect((await view.getByTestId('prompt-input').inputValue()) === '', 'the sent prompt came back into the prompt box after the panel was restored');
      await shot(ctx, '22-panel-restored');
      // the whole conversation is there: its oldest prompt, at the top of the (virtualized, paged) transcript
      const restored = await oldestPrompt();
      expect(restored === oldest, `the restored chat starts with ${JSON.stringify(restored)}, not ${JSON.stringify(oldest)}`);
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

/** The newest file called `name` under `dir` (each window reload starts a new extension host with its own log folder). */
export function findFile(dir: string, name: string): string | undefined {
  let newest: { file: string; mtime: number } | undefined;
  const walk = (at: string) => {
    for (const e of fs.readdirSync(at, { withFileTypes: true })) {
      const p = path.join(at, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === name) {
        const mtime = fs.statSync(p).mtimeMs;
        if (!newest || mtime > newest.mtime) newest = { file: p, mtime };
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return newest?.file;
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
