/**
 * E2E cases: Stop clears pending prompts, prompts while the panel is hidden, panel state restore, selection context,
 * plan mode and yolo in the status bar.
 */
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
  statusBar,
  waitFor,
  waitForChatRequests,
  chatRequests,
  type E2ECase,
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
    name: 'a permission request while the panel is hidden shows a notification with the same choices; the panel restores its state',
    run: async (ctx) => {
      // the tool call streams slowly, so the request arrives after the panel is hidden
      ctx.script.push(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo via-notification > toast.txt' } }], chunkDelayMs: 600 },
        { text: 'Done via the notification.' },
      );
      await sendPrompt(ctx.page, 'Write toast.txt with a shell command.');
      await runCommand(ctx.page, 'View: Show Explorer');
      await clickToastButton(ctx.page, /echo via-notification/, 'Allow once').catch(async (e: unknown) => {
        await shot(ctx, 'debug-hidden-panel');
        throw e;
      });
      await shot(ctx, '21-permission-notification-answered');
      await waitFor('toast.txt written', () => readWorkspaceFile(ctx, 'toast.txt')?.includes('via-notification'), 30000);
      await runCommand(ctx.page, 'agentcli: Open Chat');
      const view = chatView(ctx.page);
      await view.getByText('Done via the notification.').first().waitFor({ timeout: 30000 });
      await view.getByText('Streaming works', { exact: false }).first().waitFor({ timeout: 10000 }); // restored from the snapshot
      await shot(ctx, '22-panel-restored');
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
      await runCommand(ctx.page, 'agentcli: Yolo Mode for N Minutes');
      const input = ctx.page.locator('.quick-input-widget input');
      await input.fill('0');
      await ctx.page.locator('.quick-input-widget', { hasText: 'must be positive' }).waitFor({ timeout: 10000 });
      await shot(ctx, '24-yolo-timeout-refused');
      await input.fill('5');
      await ctx.page.keyboard.press('Enter');
      await statusBar(ctx.page, /yolo 5m left/).waitFor({ timeout: 20000 });
      await shot(ctx, '25-plan-and-yolo-status');
      await runCommand(ctx.page, 'agentcli: Turn Yolo Mode Off');
      await runCommand(ctx.page, 'agentcli: Toggle Plan Mode');
      await statusBar(ctx.page, 'plan').waitFor({ state: 'detached', timeout: 20000 });
    },
  },
];
