/**
 * E2E cases: sessions that last. A window reload brings the chat back (transcript rebuilt from the saved session);
 * the history (header button, command palette) reopens an older chat and deletes one; the context meter and
 * "Compact Conversation".
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitAllowing } from './cases-batch';
import { chatView, expect, panelShot, requestText, runCommand, sendPrompt, shot, waitFor, type E2ECase, type E2EContext } from './harness';

const FIRST_PROMPT = 'History one: what does the README say?';
const FIRST_ANSWER = 'History answer one: the README describes the demo.';
const SECOND_PROMPT = 'History two: a second chat';
const SECOND_ANSWER = 'History answer two.';
const AT_ONCE_PROMPT = 'History at once: typed right after the reload';
const AT_ONCE_ANSWER = 'History answer at once.';

/** The runtime's saved session files (the e2e HOME is next to the workspace copy). */
function savedSessions(ctx: E2EContext): string[] {
  const dir = path.join(path.dirname(ctx.workspace), 'home', '.agentcli', 'sessions');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
}

function historyRow(ctx: E2EContext, text: string) {
  return ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
}

/** Polls an async condition (the harness's waitFor takes a synchronous probe). */
async function until(ctx: E2EContext, what: string, probe: () => Promise<boolean>, timeoutMs = 20000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await ctx.page.waitForTimeout(250);
  }
}

async function openHistoryFromHeader(ctx: E2EContext): Promise<void> {
  await ctx.page.keyboard.press('Escape');
  // At the default side bar width the panel's own history icon gives way to the model name; the view's title bar keeps one.
  const inPanel = chatView(ctx.page).getByTestId('history');
  if (await inPanel.isVisible()) await inPanel.click();
  else await ctx.page.locator('.part.sidebar .action-label[aria-label*="Chat History"]').first().click(); // the view's own title actions (also with other views in the container)
  await ctx.page.locator('.quick-input-widget', { hasText: 'Chat History' }).waitFor({ timeout: 20000 });
}

export const historyCases: E2ECase[] = [
  {
    name: 'history: the chat survives a window reload (tool card and answer rebuilt from the saved session)',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Open Chat');
      await chatView(ctx.page).locator('textarea').first().waitFor({ timeout: 30000 });
      await chatView(ctx.page).getByTestId('new-chat').click();
      await ctx.page.waitForTimeout(500);
      ctx.script.push({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] }, { text: FIRST_ANSWER });
      await sendPrompt(ctx.page, FIRST_PROMPT);
      await waitAllowing(ctx, FIRST_ANSWER);
      await waitFor('the saved session', () => savedSessions(ctx).length > 0);

      await reloadWindow(ctx);
      const view = chatView(ctx.page);
      await view.getByText(FIRST_ANSWER).first().waitFor({ timeout: 60000 });
      await view.getByText(FIRST_PROMPT).first().waitFor({ timeout: 5000 });
      const tool = view.locator('[data-testid="tool-card"]', { hasText: 'README.md' }).first();
      await tool.waitFor({ timeout: 5000 });
      expect((await view.getByText(/could not be reopened/).count()) === 0, 'the panel says the last chat could not be reopened');
      await view.getByTestId('context-meter').waitFor({ timeout: 20000 });
      await panelShot(ctx, '50-history-after-reload');
    },
  },
  {
    name: 'history: a prompt sent at once after a reload goes into the reopened chat',
    run: async (ctx) => {
      await reloadWindow(ctx);
      // No waiting for the restore: the box is usable as soon as it shows, and the prompt waits for the chat.
      ctx.script.push({ text: AT_ONCE_ANSWER });
      const sent = ctx.stub.requests.length;
      await sendPrompt(ctx.page, AT_ONCE_PROMPT);
      const view = chatView(ctx.page);
      await view.getByText(AT_ONCE_ANSWER).first().waitFor({ timeout: 60000 });
      const request = ctx.stub.requests.slice(sent).map(requestText).find((t) => t.includes(AT_ONCE_PROMPT));
      expect(request?.includes(FIRST_PROMPT), 'the prompt did not carry the reopened chat (it went to a new one)');
      await view.getByText(FIRST_ANSWER).first().waitFor({ timeout: 5000 });
      expect((await view.getByText(AT_ONCE_PROMPT).count()) === 1, 'the prompt is not shown exactly once');
      await panelShot(ctx, '50b-history-prompt-at-once');
    },
  },
  {
    name: 'history: reopen an older chat from the header button, delete one from the list',
    run: async (ctx) => {
      const view = chatView(ctx.page);
      await ctx.page.keyboard.press('Escape');
      await view.getByTestId('new-chat').click();
      ctx.script.push({ text: SECOND_ANSWER });
      await sendPrompt(ctx.page, SECOND_PROMPT);
      await view.getByText(SECOND_ANSWER).first().waitFor({ timeout: 30000 });
      await waitFor('two saved sessions', () => savedSessions(ctx).length >= 2);

      await openHistoryFromHeader(ctx);
      const older = historyRow(ctx, FIRST_PROMPT);
      await older.waitFor({ timeout: 20000 });
      const current = historyRow(ctx, SECOND_PROMPT);
      expect((await current.innerText()).includes('current'), 'the open chat is not marked current');
      expect(/just now|min ago/.test(await older.innerText()) && (await older.innerText()).includes('ggufserver/stub-model'), `the row lacks age or model: ${await older.innerText()}`);
      await shot(ctx, '51-history-list');
      await older.click();
      await view.getByText(FIRST_ANSWER).first().waitFor({ timeout: 20000 });
      await until(ctx, 'the second chat gone from the panel', async () => (await view.getByText(SECOND_ANSWER).count()) === 0);
      await panelShot(ctx, '52-history-reopened');

      // The chat left behind can now be deleted (the open one has no delete button).
      const before = savedSessions(ctx).length;
      await runCommand(ctx.page, 'agentcli: Open Chat History…');
      const second = historyRow(ctx, SECOND_PROMPT);
      await second.waitFor({ timeout: 20000 });
      await second.hover();
      await second.locator('.action-label[aria-label="Delete this chat"], .action-label[title="Delete this chat"]').first().click();
      await second.waitFor({ state: 'detached', timeout: 20000 });
      await waitFor('the deleted session file gone', () => savedSessions(ctx).length === before - 1);
      expect((await historyRow(ctx, FIRST_PROMPT).locator('.action-label[aria-label="Delete this chat"]').count()) === 0, 'the open chat can be deleted');
      await shot(ctx, '53-history-after-delete');
      await ctx.page.keyboard.press('Escape');
    },
  },
  {
    name: 'history: the context meter shows usage and Compact Conversation summarises the chat',
    run: async (ctx) => {
      const view = chatView(ctx.page);
      const meter = view.getByTestId('context-meter');
      await meter.waitFor({ timeout: 20000 });
      const before = (await meter.textContent()) ?? '';
      expect(/\d/.test(before), `the meter shows no number: "${before}"`);
      ctx.script.push({ text: 'The user asked about the README; the agent read it and summarised it.' });
      await runCommand(ctx.page, 'agentcli: Compact Conversation');
      await view.getByText(/Earlier messages were summarised/).first().waitFor({ timeout: 30000 });
      await until(ctx, 'the meter to update', async () => ((await meter.textContent()) ?? '') !== before);
      await panelShot(ctx, '54-history-compacted');
    },
  },
  {
    name: 'history: a last chat that cannot be read gives a new chat and one sentence saying why',
    run: async (ctx) => {
      const dir = path.join(path.dirname(ctx.workspace), 'home', '.agentcli', 'sessions');
      const newest = savedSessions(ctx).sort((a, b) => fs.statSync(path.join(dir, b)).mtimeMs - fs.statSync(path.join(dir, a)).mtimeMs)[0];
      expect(newest !== undefined, 'no saved session to break');
      await reloadWindow(ctx);
      // the reloaded window reopened it; break it and reload again
      await chatView(ctx.page).getByText(FIRST_ANSWER).first().waitFor({ timeout: 60000 });
      fs.writeFileSync(path.join(dir, newest), 'not a session file\n');
      await reloadWindow(ctx);
      const view = chatView(ctx.page);
      await view.getByText('The last chat could not be reopened: its saved file cannot be read. This is a new chat.').first().waitFor({ timeout: 60000 });
      expect((await view.getByText(FIRST_ANSWER).count()) === 0, 'the unreadable chat is still shown');
      await panelShot(ctx, '55-history-unreadable');
    },
  },
];

export async function reloadWindow(ctx: E2EContext): Promise<void> {
  await ctx.page.reload({ timeout: 90000 }); // a loaded machine takes longer than the 20 s default
  await ctx.page.locator('.activitybar .action-item a[aria-label^="Agent"]').first().waitFor({ timeout: 90000 });
  // The side bar usually comes back with the chat open; the palette may not list our commands for a moment yet.
  for (let attempt = 1; ; attempt++) {
    if (await chatView(ctx.page).locator('textarea').first().isVisible().catch(() => false)) return;
    try {
      await runCommand(ctx.page, 'agentcli: Open Chat');
      await chatView(ctx.page).locator('textarea').first().waitFor({ timeout: 20000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      await ctx.page.keyboard.press('Escape');
      await ctx.page.waitForTimeout(2000);
    }
  }
}
