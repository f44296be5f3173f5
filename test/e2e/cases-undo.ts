/**
 * E2E cases: undoing an applied change batch. From the card's Undo button (two files: the pick asks which, all ticked;
 * the disk is back as before), and from "agentcli: Undo Last Applied Changes" with a file edited since the apply
 * (kept, and the card says why).
 */
import fs from 'node:fs';
import path from 'node:path';
import { waitAllowing } from './cases-batch';
import { chatView, expect, readWorkspaceFile, runCommand, sendPrompt, shot, toast, type E2ECase, type E2EContext } from './harness';

/** Opens the chat; when run alone on a busy machine the extension may not be registered yet: the command is retried. */
async function openChat(ctx: E2EContext): Promise<void> {
  const box = chatView(ctx.page).locator('textarea').first();
  for (let i = 0; i < 6 && !(await box.isVisible().catch(() => false)); i++) {
    await ctx.page.keyboard.press('Escape').catch(() => undefined); // a "command not found" dialog of the try before
    await runCommand(ctx.page, 'agentcli: Open Chat').catch(() => undefined);
    await box.waitFor({ timeout: 30000 }).catch(() => undefined);
  }
  await box.waitFor({ timeout: 5000 });
}

/** Has the model propose `files` (path → content) in one run and accepts them all from the card. */
async function applyFromCard(ctx: E2EContext, files: Record<string, string>, done: string): Promise<void> {
  ctx.script.push({ toolCalls: Object.entries(files).map(([p, content]) => ({ name: 'write_file', arguments: { path: p, content } })) }, { text: done });
  await openChat(ctx);
  await sendPrompt(ctx.page, `Change ${Object.keys(files).join(' and ')}.`);
  await waitAllowing(ctx, done);
  const card = chatView(ctx.page).getByTestId('batch-card').last();
  await card.getByTestId('batch-accept-all').click();
  await card.getByTestId('batch-file-result').nth(Object.keys(files).length - 1).waitFor({ timeout: 20000 });
  for (const [p, content] of Object.entries(files)) expect(readWorkspaceFile(ctx, p) === content, `${p} was not applied`);
}

/** Waits until `ticked` rows of the open multi-select pick are ticked, then presses its OK button. */
async function confirmPick(ctx: E2EContext, ticked: number, state?: string): Promise<void> {
  await ctx.page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]').nth(ticked - 1).waitFor({ timeout: 10000 });
  if (state) await shot(ctx, state);
  await ctx.page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).first().click();
}

export const undoCases: E2ECase[] = [
  {
    name: 'undo: the Undo button of an applied batch asks which files (all ticked) and puts the disk back',
    run: async (ctx) => {
      const before = 'the original text\n';
      fs.writeFileSync(path.join(ctx.workspace, 'undo-me.txt'), before);
      await applyFromCard(ctx, { 'undo-me.txt': 'text the agent wrote\n', 'undo-made/new.txt': 'a file the agent made\n' }, 'Two files changed for the undo test.');
      const card = chatView(ctx.page).getByTestId('batch-card').last();
      const undo = card.getByTestId('batch-undo');
      await undo.waitFor({ timeout: 20000 });
      await shot(ctx, '14a-undo-offered');
      await undo.click();
      await ctx.page.locator('.quick-input-widget', { hasText: 'Undo applied changes (2 files)' }).waitFor({ timeout: 20000 });
      await confirmPick(ctx, 2, '14b-undo-pick');
      await toast(ctx.page, 'Undid the changes to 2 files.').waitFor({ timeout: 20000 });
      const labels = card.getByTestId('batch-file-undo');
      await labels.nth(1).waitFor({ timeout: 20000 });
      expect((await labels.allTextContents()).join(',') === 'reverted,reverted', `the card says ${(await labels.allTextContents()).join(',')}`);
      expect(readWorkspaceFile(ctx, 'undo-me.txt') === before, `undo-me.txt is not back: ${readWorkspaceFile(ctx, 'undo-me.txt')}`);
      expect(!fs.existsSync(path.join(ctx.workspace, 'undo-made')), 'the folder the agent made is still there');
      await undo.waitFor({ state: 'detached', timeout: 20000 });
      await shot(ctx, '14c-undo-done');
    },
  },
  {
    name: 'undo: Undo Last Applied Changes keeps a file changed since the apply and says why',
    run: async (ctx) => {
      fs.writeFileSync(path.join(ctx.workspace, 'undo-a.txt'), 'a before\n');
      fs.writeFileSync(path.join(ctx.workspace, 'undo-b.txt'), 'b before\n');
      await applyFromCard(ctx, { 'undo-a.txt': 'a by the agent\n', 'undo-b.txt': 'b by the agent\n' }, 'Two more files changed.');
      fs.writeFileSync(path.join(ctx.workspace, 'undo-b.txt'), 'b edited by hand\n');
      await runCommand(ctx.page, 'agentcli: Undo Last Applied Changes');
      await confirmPick(ctx, 2);
      await toast(ctx.page, 'Undid the changes to 1 file. undo-b.txt changed since it was applied — kept.').waitFor({ timeout: 20000 });
      const card = chatView(ctx.page).getByTestId('batch-card').last();
      await card.getByTestId('batch-undo-note').waitFor({ timeout: 20000 });
      expect((await card.getByTestId('batch-undo-note').textContent()) === 'undo-b.txt changed since it was applied — kept', 'the card does not say why undo-b.txt was kept');
      expect((await card.getByTestId('batch-file-undo').allTextContents()).join(',') === 'reverted,kept', 'the card does not show reverted, kept');
      expect(readWorkspaceFile(ctx, 'undo-a.txt') === 'a before\n', 'undo-a.txt is not back');
      expect(readWorkspaceFile(ctx, 'undo-b.txt') === 'b edited by hand\n', 'the hand edit of undo-b.txt was overwritten');
      await shot(ctx, '14d-undo-stale-kept');
      // the kept file can be undone once it is put back; until then the command stays listed
      await card.getByTestId('batch-undo').waitFor({ timeout: 20000 });
    },
  },
];
