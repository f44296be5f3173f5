/**
 * E2E cases: per-hunk review. The model proposes one edit of a file with two separated hunks; in the diff the user
 * rejects the second hunk from the editor's context menu (it disappears from the proposed side and the panel's card
 * says "1 of 2 hunks"), then "Apply Reviewed Hunks" writes exactly the first hunk.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { waitAllowing } from './cases-batch';
import { chatView, expect, readWorkspaceFile, runCommand, sendPrompt, shot, statusBar, type E2ECase } from './harness';

const ORIGINAL = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const FIRST_HUNK = 'line 2, edited in the first hunk';
const SECOND_HUNK = 'line 18, edited in the second hunk';
const PROPOSED = ORIGINAL.replace('line 2\n', `${FIRST_HUNK}\n`).replace('line 18\n', `${SECOND_HUNK}\nand a line added after it\n`);

/** The proposed (right) side of the active diff editor. */
const proposedSide = (page: Page) => page.locator('.editor-group-container.active .monaco-diff-editor .editor.modified');

export const hunkCases: E2ECase[] = [
  {
    name: 'per-hunk review: reject one hunk of a file in the diff',
    run: async (ctx) => {
      fs.writeFileSync(path.join(ctx.workspace, 'hunks.txt'), ORIGINAL);
      ctx.script.push({ toolCalls: [{ name: 'write_file', arguments: { path: 'hunks.txt', content: PROPOSED } }] }, { text: 'One file, two hunks proposed.' });
      await runCommand(ctx.page, 'agentcli: Open Chat');
      await chatView(ctx.page).locator('textarea').first().waitFor({ timeout: 60000 });
      await sendPrompt(ctx.page, 'Edit line 2 and line 18 of hunks.txt.');
      await waitAllowing(ctx, 'One file, two hunks proposed.');
      const card = chatView(ctx.page).getByTestId('batch-card').last();
      await card.getByTestId('batch-review-file').filter({ hasText: 'hunks.txt' }).click();
      await ctx.page.locator('.tab', { hasText: 'hunks.txt (modify, proposed)' }).first().waitFor({ timeout: 20000 });
      const secondLine = proposedSide(ctx.page).locator('.view-line', { hasText: SECOND_HUNK });
      await secondLine.waitFor({ timeout: 60000 }); // the contents come from the runtime: slow on a busy machine
      await ctx.page.waitForTimeout(1000); // the hunk notes are decorations: drawn just after the text
      await shot(ctx, '13a-hunks-diff');

      // Reject the second hunk from the context menu of its line.
      await secondLine.click();
      await secondLine.click({ button: 'right' });
      const menuItem = ctx.page.locator('.monaco-menu .action-item', { hasText: 'Reject Hunk' }).first();
      await menuItem.waitFor({ timeout: 10000 });
      await shot(ctx, '13b-hunks-context-menu');
      await menuItem.click();
      await statusBar(ctx.page, 'Rejected hunk 2 of 2 in hunks.txt.').waitFor({ timeout: 20000 });
      await secondLine.waitFor({ state: 'detached', timeout: 20000 });
      expect(await proposedSide(ctx.page).locator('.view-line', { hasText: FIRST_HUNK }).count() === 1, 'the kept first hunk is no longer on the proposed side');
      const tally = card.getByTestId('batch-file-hunks');
      await tally.waitFor({ timeout: 20000 });
      expect((await tally.textContent()) === '1 of 2 hunks', `the card says "${await tally.textContent()}" for hunks.txt`);
      await card.getByTestId('batch-hunks-note').waitFor();
      expect(readWorkspaceFile(ctx, 'hunks.txt') === ORIGINAL, 'hunks.txt was written before the decision');
      await shot(ctx, '13c-hunk-rejected');
    },
  },
  {
    // Split from the case above (same batch, still under review): together they outlast one case's time on a busy machine.
    name: 'per-hunk review: Apply Reviewed Hunks writes exactly the kept hunk',
    run: async (ctx) => {
      const card = chatView(ctx.page).getByTestId('batch-card').last();
      const apply = ctx.page.locator('.editor-group-container.active .editor-actions .action-label[aria-label^="Apply Reviewed Hunks"]').first();
      await apply.waitFor({ timeout: 20000 });
      await apply.click();
      const result = card.getByTestId('batch-file-result');
      await result.waitFor({ timeout: 20000 });
      expect((await result.getAttribute('data-status')) === 'applied', `hunks.txt is ${await result.getAttribute('data-status')}, not applied`);
      expect((await result.textContent()) === '1 of 2 hunks', `the decided card says "${await result.textContent()}" for hunks.txt, not that 1 of 2 hunks were written`);
      const written = readWorkspaceFile(ctx, 'hunks.txt');
      expect(written === ORIGINAL.replace('line 2\n', `${FIRST_HUNK}\n`), `hunks.txt on disk is not the original with only the first hunk:\n${written}`);
      await ctx.page.locator('.tab', { hasText: 'hunks.txt (modify, proposed)' }).first().waitFor({ state: 'detached', timeout: 20000 });
      await shot(ctx, '13d-hunks-applied');
    },
  },
];
