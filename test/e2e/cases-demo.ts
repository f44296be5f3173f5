/**
 * E2E cases: the demo walkthrough model (`start-vscode.sh --demo-model`) as a person meets it. The workspace is
 * pointed at a demo-model server for the case and put back afterwards (the other cases share this window): from the
 * welcome screen's first example through a test run that asks permission to the fix batch accepted on disk; then the
 * folder outside the workspace, a plan in plan mode and the scripted error with its remedy.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startDemoModel } from '../stubs/demo-model';
import { DEMO_MODEL_ID, DEMO_PROMPTS } from '../stubs/demo-model/walkthrough';
import { clickChatButton } from './cases-chat';
import { chatView, editSettings, expect, panelShot, readWorkspaceFile, runCommand, sendPrompt, shot, statusBar, toast, type E2ECase, type E2EContext } from './harness';

const [, TESTS, FIX, PLAN, STYLE, ERROR] = DEMO_PROMPTS;
const MODEL_KEYS = ['agentcli.ggufserver.baseUrl', 'agentcli.ggufserver.model', 'agentcli.ggufserver.contextSize'] as const;

/** Runs `body` with the workspace on a demo-model server and the style guide next to the workspace; then puts both back. */
async function withDemoModel(ctx: E2EContext, body: () => Promise<void>): Promise<void> {
  const demo = await startDemoModel({ chunkDelayMs: 4 });
  const settingsFile = path.join(ctx.workspace, '.vscode', 'settings.json');
  const saved = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  const guide = path.join(path.dirname(ctx.workspace), 'style-guide');
  fs.cpSync(path.join(__dirname, '..', 'stubs', 'demo-model', 'style-guide'), guide, { recursive: true });
  try {
    await runCommand(ctx.page, 'agentcli: Open Chat');
    await chatView(ctx.page).locator('textarea').first().waitFor({ timeout: 60000 });
    // as start-vscode.sh --demo-model sets them (the window lets a whole walkthrough fit without compaction)
    // a batch an earlier case left undecided would refuse the prompts
    const reject = chatView(ctx.page).getByRole('button', { name: /^reject all$/i });
    if ((await reject.count()) > 0) await reject.last().click();
    editSettings(ctx, { 'agentcli.ggufserver.baseUrl': demo.origin, 'agentcli.ggufserver.model': DEMO_MODEL_ID, 'agentcli.ggufserver.contextSize': 32768 });
    await statusBar(ctx.page, DEMO_MODEL_ID).waitFor({ timeout: 30000 });
    await body();
  } finally {
    editSettings(ctx, Object.fromEntries(MODEL_KEYS.map((k) => [k, saved[k] ?? null])));
    await statusBar(ctx.page, String(saved['agentcli.ggufserver.model'] ?? 'ggufserver')).waitFor({ timeout: 30000 }).catch(() => undefined);
    await demo.close();
  }
}

/** Waits for an answer's text in the chat (the demo streams it). */
async function answer(ctx: E2EContext, text: string | RegExp, timeout = 40000): Promise<void> {
  await chatView(ctx.page).getByText(text).first().waitFor({ timeout });
}

export const demoCases: E2ECase[] = [
  {
    name: 'demo walkthrough: the first example, a test run that asks first, the fix batch reviewed and accepted on disk',
    timeoutMs: 300000, // six runs, two of them running the demo's tests
    run: (ctx) =>
      withDemoModel(ctx, async () => {
        const view = chatView(ctx.page);
        await view.getByTestId('new-chat').click();
        await view.getByTestId('welcome-model').filter({ hasText: DEMO_MODEL_ID }).waitFor({ timeout: 20000 });
        await panelShot(ctx, '80-demo-welcome');
        await view.getByTestId('welcome-example').first().click();
        await view.locator('textarea').first().press('Enter');
        await answer(ctx, /a scripted demo model \(a test double\)/);
        await view.locator('h3', { hasText: 'Where to start reading' }).first().waitFor({ timeout: 40000 });
        expect((await view.getByTestId('tool-card').count()) >= 4, 'the explain flow did not show its list, read and grep tool cards');
        await panelShot(ctx, '81-demo-explained');

        await sendPrompt(ctx.page, TESTS);
        await view.getByText('node --test --test-reporter=tap').first().waitFor({ timeout: 30000 });
        await panelShot(ctx, '82-demo-test-permission');
        await clickChatButton(ctx, /allow once/i);
        await answer(ctx, '2 of 3 tests fail:');
        await panelShot(ctx, '83-demo-tests-fail');

        const before = readWorkspaceFile(ctx, 'src/word-count.js');
        await sendPrompt(ctx.page, FIX);
        const card = view.getByTestId('batch-card').last();
        await card.getByText('CHANGELOG.md').first().waitFor({ timeout: 40000 });
        await answer(ctx, 'Nothing is on disk yet');
        expect(readWorkspaceFile(ctx, 'src/word-count.js') === before, 'the fix was written before it was accepted');
        expect(readWorkspaceFile(ctx, 'CHANGELOG.md') === undefined, 'CHANGELOG.md exists before the batch was accepted');
        await panelShot(ctx, '84-demo-fix-batch');
        await clickChatButton(ctx, /^review/i);
        await ctx.page.locator('.tab', { hasText: /^Proposed changes/ }).first().waitFor({ timeout: 60000 });
        await ctx.page.waitForTimeout(1500);
        // on a loaded machine the multi-file diff keeps the workbench busy past the default bound of a screenshot
        await ctx.page.screenshot({ path: path.join(ctx.shotsDir, '85-demo-fix-diff.png'), timeout: 90000 });
        ctx.shots.push('85-demo-fix-diff');
        await clickChatButton(ctx, /accept all/i);
        await toast(ctx.page, /Applied 3 files/).waitFor({ timeout: 40000 });
        expect(/split\(\/\\s\+\/\)\.filter/.test(readWorkspaceFile(ctx, 'src/word-count.js') ?? ''), 'src/word-count.js does not hold the fix');
        expect((readWorkspaceFile(ctx, 'test/word-count.test.js') ?? '').includes("test('ignores repeated spaces'"), 'the new test is not on disk');
        expect((readWorkspaceFile(ctx, 'CHANGELOG.md') ?? '').startsWith('# Changelog\n\n## Unreleased\n\n- `wordCount` counts words'), 'CHANGELOG.md is not on disk');
        await shot(ctx, '86-demo-fix-accepted');

        await sendPrompt(ctx.page, TESTS);
        await clickChatButton(ctx, /allow once/i);
        await answer(ctx, 'All 4 tests pass.');
        await panelShot(ctx, '87-demo-tests-pass');
      }),
  },
  {
    name: 'demo walkthrough: the folder outside the workspace, a plan in plan mode, the error with its remedy',
    timeoutMs: 240000,
    run: (ctx) =>
      withDemoModel(ctx, async () => {
        const view = chatView(ctx.page);
        await view.getByTestId('new-chat').click();
        await sendPrompt(ctx.page, STYLE);
        const folder = view.getByTestId('directory-card').last();
        await folder.getByTestId('directory-path').filter({ hasText: 'style-guide' }).waitFor({ timeout: 30000 });
        await panelShot(ctx, '88-demo-folder-access');
        await clickChatButton(ctx, /allow once|grant once|^allow$/i);
        await answer(ctx, 'has 3 rules:');

        await runCommand(ctx.page, 'agentcli: Toggle Plan Mode');
        await statusBar(ctx.page, 'plan').waitFor({ timeout: 20000 });
        try {
          await sendPrompt(ctx.page, PLAN);
          const plan = view.getByTestId('plan-card').last();
          await plan.getByTestId('plan-accept').waitFor({ timeout: 30000 });
          expect((await plan.getByTestId('plan-step').count()) === 2, 'the plan card does not show the two steps');
          await panelShot(ctx, '89-demo-plan');
          await plan.getByTestId('plan-accept').click();
          await view.getByTestId('plan-card').last().getByTestId('plan-progress').filter({ hasText: '2 of 2 done' }).waitFor({ timeout: 40000 });
          await view.getByTestId('batch-card').last().getByText('main.ts').first().waitFor({ timeout: 20000 });
          await panelShot(ctx, '90-demo-plan-done');
          await clickChatButton(ctx, /accept all/i);
          await toast(ctx.page, /Applied 2 files/).waitFor({ timeout: 20000 });
          expect((readWorkspaceFile(ctx, 'src/main.ts') ?? '').includes("console.log(farewell('agentcli'));"), 'the accepted plan\'s edit of src/main.ts is not on disk');
        } finally {
          if (await statusBar(ctx.page, /^\s*plan\s*$/).isVisible().catch(() => false)) await runCommand(ctx.page, 'agentcli: Toggle Plan Mode');
        }

        await view.locator('textarea').first().waitFor({ timeout: 60000 }); // the accepted files' language server starts now
        await sendPrompt(ctx.page, ERROR);
        const error = view.getByTestId('error-message').last();
        await error.getByTestId('error-remedy').filter({ hasText: 'larger context' }).waitFor({ timeout: 30000 });
        await panelShot(ctx, '91-demo-error-remedy');
      }),
  },
];
