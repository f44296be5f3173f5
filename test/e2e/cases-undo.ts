/**
 * E2E cases: undoing an applied change batch. From the card's Undo button (two files: the pick asks which, all ticked;
 * the disk is back as before), and from "agentcli: Undo Last Applied Changes" with a file edited since the apply
 * (kept, and the card says why). After a window reload the applied batch's card comes back with its Undo, which still
 * puts the disk back, and a run's error keeps its fix buttons.
 */
import fs from 'node:fs';
import path from 'node:path';
import { waitAllowing } from './cases-batch';
import { reloadWindow } from './cases-history';
import { chatView, expect, panelShot, readWorkspaceFile, runCommand, sendPrompt, shot, toast, waitFor, type E2ECase, type E2EContext } from './harness';

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
  {
    name: 'undo: after a window reload the applied batch card has Undo and it puts the disk back; an error keeps its buttons',
    timeoutMs: 240_000, // two window reloads: over 100 s on a busy machine
    run: async (ctx) => {
      await openChat(ctx);
      await chatView(ctx.page).getByTestId('new-chat').click();
      const before = 'before the reload test\n';
      fs.writeFileSync(path.join(ctx.workspace, 'reload-undo.txt'), before);
      await applyFromCard(ctx, { 'reload-undo.txt': 'written before the reload\n' }, 'Changed one file for the reload test.');
      const batchId = await chatView(ctx.page).getByTestId('batch-card').last().getAttribute('data-batch-id');
      expect(batchId, 'the card names no batch');
      // a run that fails with a fix: the model is not on the server (the gguf server's address is the setting)
      ctx.script.push({ status: 404, errorBody: { error: { message: 'The model `stub-model` does not exist', code: 'model_not_found' } } });
      await sendPrompt(ctx.page, 'Fail once for the reload test.');
      const errorCard = () => chatView(ctx.page).getByTestId('error-message').filter({ has: chatView(ctx.page).getByTestId('error-action-openSetting') }).last();
      await errorCard().waitFor({ timeout: 30000 });
      const errorText = (await errorCard().locator('.error-text').textContent()) ?? '';
      await runCommand(ctx.page, 'Notifications: Clear All Notifications');

      await reloadWindow(ctx);
      const view = chatView(ctx.page);
      const card = view.locator(`[data-testid="batch-card"][data-batch-id="${batchId}"]`);
      await card.waitFor({ timeout: 60000 });
      const undo = card.getByTestId('batch-undo');
      await undo.waitFor({ timeout: 30000 });
      expect((await card.getByTestId('batch-file-result').allTextContents()).join(',') === 'applied', 'the reopened card does not say applied');
      const restoredError = errorCard();
      await restoredError.waitFor({ timeout: 10000 });
      expect(((await restoredError.locator('.error-text').textContent()) ?? '') === errorText, 'the reopened error is worded otherwise than live');
      await restoredError.getByTestId('error-action-selectProvider').waitFor({ timeout: 5000 });
      await panelShot(ctx, '14e-undo-after-reload');

      // the error's button works after the reload: Open Settings shows exactly its setting
      await restoredError.getByTestId('error-action-openSetting').click();
      const settingsEditor = ctx.page.locator('.settings-editor');
      await settingsEditor.locator('.settings-count-widget', { hasText: '1 Setting Found' }).waitFor({ timeout: 20000 });
      const query = await settingsEditor.locator('.settings-header .view-lines').first().innerText();
      expect(query.replace(/\s/g, ' ').includes('@id:agentcli.ggufserver.baseUrl'), `the Settings editor is filtered by "${query}"`);
      await shot(ctx, '14f-error-button-after-reload');
      // the Settings editor opens as a modal here: Escape closes it (a first one may only leave the search box)
      for (let i = 0; i < 3 && (await settingsEditor.isVisible()); i++) {
        await ctx.page.keyboard.press('Escape');
        await settingsEditor.waitFor({ state: 'hidden', timeout: 3000 }).catch(() => undefined);
      }
      expect(!(await settingsEditor.isVisible()), 'the Settings editor did not close');

      await undo.click();
      await toast(ctx.page, 'Undid the changes to 1 file.').waitFor({ timeout: 20000 });
      await waitFor('reload-undo.txt back as before', () => readWorkspaceFile(ctx, 'reload-undo.txt') === before);
      await card.getByTestId('batch-file-undo').waitFor({ timeout: 20000 });
      await undo.waitFor({ state: 'detached', timeout: 20000 });

      // reopened once more: the card says reverted and offers no Undo (nothing left to undo)
      await reloadWindow(ctx);
      const again = chatView(ctx.page).locator(`[data-testid="batch-card"][data-batch-id="${batchId}"]`);
      await again.getByTestId('batch-file-undo').waitFor({ timeout: 60000 });
      expect((await again.getByTestId('batch-file-undo').textContent()) === 'reverted', 'the reopened card does not say reverted');
      await ctx.page.waitForTimeout(3000); // the undoable list arrives after the runtime is ready
      expect((await again.getByTestId('batch-undo').count()) === 0, 'an undone batch still offers Undo after the reload');
      await panelShot(ctx, '14g-undone-after-reload');
      await runCommand(ctx.page, 'Notifications: Clear All Notifications');
    },
  },
];
