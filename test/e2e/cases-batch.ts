/**
 * E2E cases: change batches in the multi-file diff editor, accept selected, reject all.
 */
import type { Locator, Page } from 'playwright-core';
import { clickChatButton } from './cases-chat';
import { chatView, expect, readWorkspaceFile, runCommand, sendPrompt, shot, toast, type E2ECase, type E2EContext } from './harness';

/** Answers any permission card with Allow once until the text shows (writes may ask in interactive mode). */
export async function waitAllowing(ctx: E2EContext, doneText: string): Promise<void> {
  const done = chatView(ctx.page).getByText(doneText).first();
  const allow = chatView(ctx.page).getByRole('button', { name: /allow once/i });
  const until = Date.now() + 40000;
  while (!(await done.isVisible().catch(() => false))) {
    if (Date.now() > until) throw new Error(`"${doneText}" did not appear`);
    if ((await allow.count()) > 0) await allow.last().click().catch(() => undefined);
    await ctx.page.waitForTimeout(500);
  }
}

async function tickQuickPickRow(page: Page, label: string): Promise<void> {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout: 10000 });
  await row.locator('.quick-input-list-checkbox, input[type=checkbox], .monaco-checkbox').first().click();
}

/** Waits until `count` rows of the open quick pick are ticked. */
async function waitTickedRows(page: Page, count: number): Promise<void> {
  await page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]').nth(count - 1).waitFor({ timeout: 10000 });
}

/** An action button in the active editor group's title bar (its label starts with the command title). */
function titleAction(page: Page, title: string): Locator {
  return page.locator(`.editor-group-container.active .editor-actions .action-label[aria-label^="${title}"]`).first();
}

export const batchCases: E2ECase[] = [
  {
    name: 'a two-file batch opens in the multi-file diff; accept selected writes only the chosen file',
    run: async (ctx) => {
      const notesBefore = readWorkspaceFile(ctx, 'notes.txt');
      ctx.script.push(
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'batch-new.txt', content: 'created by the agent\n' } },
            { name: 'write_file', arguments: { path: 'notes.txt', content: `${notesBefore ?? ''}a line the agent proposes\n` } },
          ],
        },
        { text: 'I proposed two changes.' },
      );
      await sendPrompt(ctx.page, 'Create batch-new.txt and add a line to notes.txt.');
      await waitAllowing(ctx, 'I proposed two changes.');
      expect(readWorkspaceFile(ctx, 'batch-new.txt') === undefined, 'batch-new.txt was written before the decision');
      await chatView(ctx.page).getByText('batch-new.txt').first().waitFor();
      await shot(ctx, '09-batch-card');
      await clickChatButton(ctx, /^review/i);
      // VS Code appends the file count to the title itself
      await ctx.page.locator('.tab', { hasText: /^Proposed changes \(\+2 −0\)/ }).first().waitFor({ timeout: 20000 });
      await ctx.page.waitForTimeout(1500);
      await shot(ctx, '10-multi-file-diff');
      await runCommand(ctx.page, 'agentcli: Accept Selected Changes');
      // every file starts ticked: untick the one to reject
      await waitTickedRows(ctx.page, 2);
      await shot(ctx, '11-accept-selected-pick');
      await tickQuickPickRow(ctx.page, 'notes.txt');
      await ctx.page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).first().click();
      await toast(ctx.page, 'Applied 1 file, rejected 1.').waitFor({ timeout: 20000 });
      expect(readWorkspaceFile(ctx, 'batch-new.txt') === 'created by the agent\n', 'the chosen file was not written');
      expect(readWorkspaceFile(ctx, 'notes.txt') === notesBefore, 'notes.txt changed although it was not selected');
      await shot(ctx, '12-accept-selected-result');
    },
  },
  {
    name: 'per-file Accept / Reject in the diff editor title decide the batch; the buttons go with it',
    run: async (ctx) => {
      const notesBefore = readWorkspaceFile(ctx, 'notes.txt');
      ctx.script.push(
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'title-accepted.txt', content: 'accepted from the diff title\n' } },
            { name: 'write_file', arguments: { path: 'notes.txt', content: 'rejected from the diff title\n' } },
          ],
        },
        { text: 'Two proposals to decide file by file.' },
      );
      await sendPrompt(ctx.page, 'Propose two changes I will decide one by one.');
      await waitAllowing(ctx, 'Two proposals to decide file by file.');
      const card = chatView(ctx.page).getByTestId('batch-card').last();
      await card.getByTestId('batch-review-file').filter({ hasText: 'title-accepted.txt' }).click();
      await ctx.page.locator('.tab', { hasText: 'title-accepted.txt (create, proposed)' }).first().waitFor({ timeout: 20000 });
      const accept = titleAction(ctx.page, 'Accept This File');
      const reject = titleAction(ctx.page, 'Reject This File');
      await accept.waitFor({ timeout: 20000 });
      await reject.waitFor();
      await shot(ctx, '12a-diff-title-buttons');
      await accept.click();
      await ctx.page.locator('.statusbar', { hasText: 'Accepted title-accepted.txt. 1 file left.' }).waitFor({ timeout: 20000 });
      // marked, not yet decided: the next file opens and nothing is written before the whole batch is decided
      await ctx.page.locator('.tab.active', { hasText: 'notes.txt (modify, proposed)' }).first().waitFor({ timeout: 20000 });
      expect(readWorkspaceFile(ctx, 'title-accepted.txt') === undefined, 'title-accepted.txt was written before the batch was decided');
      await shot(ctx, '12b-diff-title-next-file');
      await titleAction(ctx.page, 'Reject This File').click();
      // this card's results (a toast with the same text may still show from the accept-selected case)
      const results = card.getByTestId('batch-file-result');
      await results.nth(1).waitFor({ timeout: 20000 });
      expect((await results.allTextContents()).join(',') === 'applied,rejected', `the panel shows ${(await results.allTextContents()).join(',')}`);
      expect(readWorkspaceFile(ctx, 'title-accepted.txt') === 'accepted from the diff title\n', 'the file accepted from its diff title was not written');
      expect(readWorkspaceFile(ctx, 'notes.txt') === notesBefore, 'notes.txt changed although it was rejected from its diff title');
      await ctx.page.locator('.tab', { hasText: '(modify, proposed)' }).first().waitFor({ state: 'detached', timeout: 20000 });
      expect((await ctx.page.locator('.editor-actions .action-label[aria-label^="Accept This File"], .editor-actions .action-label[aria-label^="Reject This File"]').count()) === 0,
        'Accept / Reject This File are still shown after the batch was decided');
      await ctx.page.locator('.statusbar', { hasText: /files? left\./ }).waitFor({ state: 'detached', timeout: 1000 })
        .catch(() => {
          throw new Error('the status bar still says files are left to decide after the batch was decided');
        });
      await shot(ctx, '12c-diff-title-decided');
    },
  },
  {
    name: 'reject all leaves the disk untouched',
    run: async (ctx) => {
      const notesBefore = readWorkspaceFile(ctx, 'notes.txt');
      ctx.script.push(
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'rejected-new.txt', content: 'should never exist\n' } },
            { name: 'write_file', arguments: { path: 'notes.txt', content: 'replaced entirely\n' } },
          ],
        },
        { text: 'Two more proposals.' },
      );
      await sendPrompt(ctx.page, 'Propose two changes I will reject.');
      await waitAllowing(ctx, 'Two more proposals.');
      await chatView(ctx.page).getByText('rejected-new.txt').first().waitFor();
      await clickChatButton(ctx, /reject all/i);
      await toast(ctx.page, 'Rejected 2 files.').waitFor({ timeout: 20000 });
      expect(readWorkspaceFile(ctx, 'rejected-new.txt') === undefined, 'rejected-new.txt exists after Reject all');
      expect(readWorkspaceFile(ctx, 'notes.txt') === notesBefore, 'notes.txt changed after Reject all');
      await shot(ctx, '13-reject-all');
    },
  },
];
