/**
 * E2E cases: plan mode in the panel (the proposed plan as a card, Accept runs it as a live checklist), and a timed
 * yolo counting down in the status bar and announcing its end, auto mode (status bar, menu, log).
 */
import { execFileSync } from 'node:child_process';
import { chatRequests, chatView, clickToastButton, expect, panelShot, readWorkspaceFile, requestText, runCommand, sendPrompt, shot, statusBar, toast, type E2ECase } from './harness';

export const planCases: E2ECase[] = [
  {
    name: 'plan mode: the model proposes a plan, the card shows it, Accept runs it step by step',
    run: async (ctx) => {
      const view = chatView(ctx.page);
      await runCommand(ctx.page, 'agentcli: Toggle Plan Mode');
      await statusBar(ctx.page, 'plan').waitFor({ timeout: 20000 });
      ctx.script.push({
        toolCalls: [
          {
            name: 'submit_plan',
            arguments: { steps: [{ title: 'Read README.md', detail: 'to see what the project is' }, { title: 'Summarise it in one line' }] },
          },
        ],
      });
      const before = chatRequests(ctx.stub).length;
      await sendPrompt(ctx.page, 'Plan how you would summarise this project.');
      const card = view.getByTestId('plan-card').last();
      await card.getByTestId('plan-accept').waitFor({ timeout: 30000 });
      expect((await card.getByTestId('plan-step').count()) === 2, 'the plan card does not list the two steps');
      await panelShot(ctx, '60-plan-proposed');
      // The accepted run: step 1 reads, then answers; step 2 answers; a last request summarises.
      ctx.script.push(
        { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
        { text: 'Read the README.' },
        { text: 'It is a demo workspace.' },
        { text: 'Plan carried out: the project is a demo workspace.' },
      );
      await card.getByTestId('plan-accept').click();
      await view.getByText('Plan carried out: the project is a demo workspace.').first().waitFor({ timeout: 40000 });
      const done = view.getByTestId('plan-card').last();
      await done.getByTestId('plan-progress').filter({ hasText: '2 of 2 done' }).waitFor({ timeout: 20000 });
      await statusBar(ctx.page, /^\s*plan\s*$/).waitFor({ state: 'detached', timeout: 20000 });
      const reqs = chatRequests(ctx.stub).slice(before);
      expect(reqs.some((r) => requestText(r).includes('The plan was accepted')), 'no request carried the accepted plan');
      await panelShot(ctx, '61-plan-carried-out');
      await shot(ctx, '62-plan-window');
    },
  },
  {
    name: 'timed yolo: the status bar counts down; its end is announced with Turn On Again…',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Turn On Yolo Mode');
      const input = ctx.page.locator('.quick-input-widget input');
      await input.fill('0.1');
      await ctx.page.keyboard.press('Enter');
      await statusBar(ctx.page, /yolo \d+s left/).waitFor({ timeout: 20000 });
      await shot(ctx, '63-yolo-countdown');
      await toast(ctx.page, 'Yolo mode ended after 6 seconds.').waitFor({ timeout: 30000 });
      await statusBar(ctx.page, /yolo/).waitFor({ state: 'detached', timeout: 10000 });
      await shot(ctx, '64-yolo-ended');
      await clickToastButton(ctx.page, 'Yolo mode ended after 6 seconds.', 'Turn On Again…');
      await ctx.page.locator('.quick-input-widget', { hasText: 'For how many minutes?' }).waitFor({ timeout: 10000 });
      expect((await input.inputValue()) === '0.1', 'Turn On Again… does not offer the last length');
      await ctx.page.keyboard.press('Escape');
    },
  },
  {
    name: 'auto mode: started from the palette, counts iterations in the status bar, its menu and log, a notice at the end',
    run: async (ctx) => {
      const page = ctx.page;
      ctx.script.push(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo auto-mode-was-here' } }] },
        { text: 'Ran the command.' },
        { toolCalls: [{ name: 'complete_task', arguments: { summary: 'Said hello from auto mode.' } }] },
        { text: 'Done.' },
      );
      await runCommand(page, 'agentcli: Start Auto Mode');
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget', { hasText: 'goal' }).waitFor({ timeout: 10000 });
      await input.fill('Say hello with a command');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Custom' }).first().click();
      await page.locator('.quick-input-widget', { hasText: 'At most how many iterations?' }).waitFor({ timeout: 10000 });
      await input.fill('3');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'No, work in this folder' }).first().click();
      await statusBar(page, /Auto 1\/3/).waitFor({ timeout: 20000 });
      await chatView(page).getByRole('button', { name: /allow once/i }).last().waitFor({ timeout: 30000 });
      await shot(ctx, '65-automode-running');
      await statusBar(page, /Auto 1\/3/).click();
      for (const label of ['Pause', 'Cancel', 'Show Log']) await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 10000 });
      await shot(ctx, '66-automode-menu');
      await page.keyboard.press('Escape');
      await chatView(page).getByRole('button', { name: /allow once/i }).last().click();
      const notice = 'Auto mode finished the goal after 2 iterations. Said hello from auto mode.';
      await toast(page, notice).waitFor({ timeout: 40000 });
      await statusBar(page, /Auto \d+\/3/).waitFor({ state: 'detached', timeout: 10000 });
      await clickToastButton(page, notice, 'Show Log');
      await page.locator('.tab', { hasText: 'Auto Mode Log.md' }).first().waitFor({ timeout: 20000 });
      await page.locator('.editor-group-container.active .view-lines', { hasText: 'Iteration 2' }).first().waitFor({ timeout: 20000 });
      expect(await page.locator('.editor-group-container.active .view-lines', { hasText: 'echo auto-mode-was-here' }).count() > 0, 'the log does not list the command of iteration 1');
      await shot(ctx, '67-automode-log');
    },
  },
];

/** Runs last: it makes the workspace a git repository (for the worktree), which the other cases do not expect. */
export const worktreeCases: E2ECase[] = [
  {
    name: 'auto mode in a git worktree: the branch\'s changes arrive as a batch reviewed in the diff editor',
    run: async (ctx) => {
      const page = ctx.page;
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.invalid', ...args], { cwd: ctx.workspace, stdio: 'pipe' });
      git('init', '-q');
      git('add', '-A');
      git('commit', '-q', '-m', 'e2e base');
      ctx.script.push(
        { toolCalls: [{ name: 'write_file', arguments: { path: 'auto-worktree.txt', content: 'written in the worktree\n' } }] },
        { toolCalls: [{ name: 'complete_task', arguments: { summary: 'Wrote auto-worktree.txt.' } }] },
        { text: 'Done.' },
      );
      await runCommand(page, 'agentcli: Start Auto Mode');
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget', { hasText: 'goal' }).waitFor({ timeout: 10000 });
      await input.fill('Write auto-worktree.txt');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: '5' }).first().click();
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Yes, use a git worktree' }).first().click();
      const notice = /Auto mode finished the goal after \d+ iterations?\. Wrote auto-worktree\.txt\. Its work is on the branch agentcli\/auto-/;
      const allow = chatView(page).getByRole('button', { name: /allow once/i });
      const until = Date.now() + 40000;
      while (!(await toast(page, notice).isVisible().catch(() => false))) {
        expect(Date.now() < until, 'the worktree auto-mode run did not finish');
        if ((await allow.count()) > 0) await allow.last().click().catch(() => undefined);
        await page.waitForTimeout(500);
      }
      expect(readWorkspaceFile(ctx, 'auto-worktree.txt') === undefined, 'the worktree run wrote into the user\'s folder before the review');
      await shot(ctx, '68-automode-worktree-done');
      await clickToastButton(page, notice, 'Review Changes');
      await page.locator('.tab', { hasText: /^Proposed changes/ }).first().waitFor({ timeout: 20000 });
      await page.waitForTimeout(1000);
      await shot(ctx, '69-automode-worktree-review');
      await runCommand(page, 'agentcli: Accept All Changes');
      await toast(page, /Applied 1 file/).waitFor({ timeout: 20000 });
      expect(readWorkspaceFile(ctx, 'auto-worktree.txt') === 'written in the worktree\n', 'accepting the batch did not write the file');
    },
  },
];
