/**
 * E2E cases: plan mode in the panel (the proposed plan as a card, Accept runs it as a live checklist) and the sandbox
 * shield in the header.
 */
import { chatRequests, chatView, expect, panelShot, requestText, runCommand, sendPrompt, shot, statusBar, type E2ECase } from './harness';

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
];
