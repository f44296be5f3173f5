/**
 * E2E cases: a change batch proposed, then the runtime killed while the batch waits for a decision. The restarted
 * runtime does not know the batch; the panel keeps its card and the extension applies the decision itself
 * (src/extension/changes/local-apply.ts), not overwriting a file changed on disk since the proposal.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitAllowing } from './cases-batch';
import { runtimePid } from './cases-editor';
import { chatView, expect, readWorkspaceFile, sendPrompt, shot, toast, waitFor, type E2ECase, type E2EContext } from './harness';

/** Proposes a two-file batch (one new file, one edit of `modified`) and waits until it is pending in the panel. */
async function proposeBatch(ctx: E2EContext, created: string, modified: string, proposed: string, done: string): Promise<void> {
  ctx.script.push(
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: created, content: `${created} created by the agent\n` } },
        { name: 'write_file', arguments: { path: modified, content: proposed } },
      ],
    },
    { text: done },
  );
  await ctx.page.keyboard.press('Escape');
  await sendPrompt(ctx.page, `Create ${created} and rewrite ${modified}.`);
  await waitAllowing(ctx, done);
  await pendingCard(ctx, created).getByTestId('batch-accept-all').waitFor({ timeout: 20000 });
}

function pendingCard(ctx: E2EContext, created: string) {
  return chatView(ctx.page).locator('[data-testid="batch-card"][data-status="pending"]', { hasText: created }).last();
}

/** Kills the runtime and waits for the automatically restarted one (a different pid) to be ready in the panel. */
async function crashAndRestart(ctx: E2EContext): Promise<void> {
  const pid = await waitFor('the runtime process', () => runtimePid(ctx.workspace));
  process.kill(pid, 'SIGKILL');
  await chatView(ctx.page).getByText(/stopped unexpectedly/i).first().waitFor({ timeout: 20000 });
  await waitFor('a new runtime process', () => {
    const p = runtimePid(ctx.workspace);
    return p !== undefined && p !== pid ? p : undefined;
  }, 30000);
  await chatView(ctx.page).getByTestId('runtime-banner').waitFor({ state: 'hidden', timeout: 30000 });
  await ctx.page.waitForTimeout(1500); // the ready runtime's state reaches the panel
}

export const batchCrashCases: E2ECase[] = [
  {
    name: 'a pending batch survives a runtime crash; Accept all after the restart writes both files',
    run: async (ctx) => {
      const notesBefore = readWorkspaceFile(ctx, 'notes.txt') ?? '';
      const notesProposed = `${notesBefore}a line proposed before the crash\n`;
      await proposeBatch(ctx, 'crash-new.txt', 'notes.txt', notesProposed, 'Proposed two changes, then the runtime died.');
      expect(readWorkspaceFile(ctx, 'crash-new.txt') === undefined, 'crash-new.txt was written before the decision');
      await crashAndRestart(ctx);
      const card = pendingCard(ctx, 'crash-new.txt');
      await card.waitFor({ timeout: 20000 });
      expect((await card.getByTestId('batch-file').count()) === 2, 'the batch card after the restart does not list both files');
      expect(readWorkspaceFile(ctx, 'crash-new.txt') === undefined, 'crash-new.txt was written by the crash or the restart');
      await shot(ctx, '34-batch-after-crash');
      await card.getByTestId('batch-accept-all').click();
      await toast(ctx.page, /^Applied 2 files\./).waitFor({ timeout: 20000 });
      const decided = chatView(ctx.page).locator('[data-testid="batch-card"][data-status="decided"]', { hasText: 'crash-new.txt' }).last();
      await decided.getByTestId('batch-file-result').nth(1).waitFor({ timeout: 20000 });
      const shown = (await decided.getByTestId('batch-file-result').allTextContents()).join(',');
      expect(shown === 'applied,applied', `the panel shows ${shown}`);
      expect(readWorkspaceFile(ctx, 'crash-new.txt') === 'crash-new.txt created by the agent\n', 'crash-new.txt does not hold the proposed content');
      expect(readWorkspaceFile(ctx, 'notes.txt') === notesProposed, 'notes.txt does not hold the proposed content');
      await shot(ctx, '35-batch-accepted-after-crash');
    },
  },
  {
    name: 'after a crash, a file changed on disk since the proposal is reported stale and not overwritten',
    run: async (ctx) => {
      const target = 'crash-stale.txt';
      fs.writeFileSync(path.join(ctx.workspace, target), 'before the proposal\n');
      await proposeBatch(ctx, 'crash-fresh.txt', target, 'the agent\'s version\n', 'Proposed two changes; one file will change under them.');
      await crashAndRestart(ctx);
      const card = pendingCard(ctx, 'crash-fresh.txt');
      await card.waitFor({ timeout: 20000 });
      fs.writeFileSync(path.join(ctx.workspace, target), 'edited by the user after the proposal\n');
      await card.getByTestId('batch-accept-all').click();
      const warning = toast(ctx.page, /Skipped 1 file \(changed on disk\), applied 1\./);
      await warning.waitFor({ timeout: 20000 });
      expect((await warning.innerText()).includes(target), 'the warning does not name the stale file');
      const decided = chatView(ctx.page).locator('[data-testid="batch-card"][data-status="decided"]', { hasText: 'crash-fresh.txt' }).last();
      await decided.getByTestId('batch-file-result').nth(1).waitFor({ timeout: 20000 });
      const shown = (await decided.getByTestId('batch-file-result').allTextContents()).join(',');
      expect(shown === 'applied,changed on disk', `the panel shows ${shown}`);
      expect(readWorkspaceFile(ctx, target) === 'edited by the user after the proposal\n', `${target} was overwritten although it changed on disk`);
      expect(readWorkspaceFile(ctx, 'crash-fresh.txt') === 'crash-fresh.txt created by the agent\n', 'crash-fresh.txt was not written');
      await shot(ctx, '36-batch-stale-after-crash'); // the whole window: the warning naming the stale file too
    },
  },
];
