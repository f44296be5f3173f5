/**
 * E2E cases: plan mode in the panel (the proposed plan as a card, Accept runs it as a live checklist), and a timed
 * yolo counting down in the status bar and announcing its end.
 */
import { chatRequests, chatView, clickToastButton, expect, panelShot, requestText, runCommand, sendPrompt, shot, statusBar, toast, type E2ECase } from './harness';

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
];
