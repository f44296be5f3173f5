/**
 * E2E case: the chat panel in dark, light and both high-contrast themes, showing a user message, an answer with a
 * code block, tool cards, a pending permission card and a change batch card at once. Each theme is screenshotted
 * and the rendered contrast is measured (text 4.5:1; in high contrast, card and control borders 3:1).
 */
import type { Page } from 'playwright-core';
import { HC_BORDER_CHECKS, TEXT_CHECKS, contrastFailures, measureContrast } from './contrast';
import {
  chatView,
  expect,
  panelShot,
  readWorkspaceFile,
  runCommand,
  sendPrompt,
  shot,
  toast,
  type E2ECase,
  type E2EContext,
} from './harness';

// labels as the theme picker shows them (VS Code 1.139; the setting ids differ, e.g. "Default High Contrast")
const THEMES = [
  { name: 'Light 2026', slug: 'light-2026', kind: 'vs', hc: false }, // the default
  { name: 'Dark 2026', slug: 'dark-2026', kind: 'vs-dark', hc: false },
  { name: 'Dark Modern', slug: 'dark-modern', kind: 'vs-dark', hc: false },
  { name: 'Light Modern', slug: 'light-modern', kind: 'vs', hc: false },
  { name: 'Dark High Contrast', slug: 'hc-dark', kind: 'hc-black', hc: true },
  { name: 'Light High Contrast', slug: 'hc-light', kind: 'hc-light', hc: true },
] as const;

const ANSWER =
  'Here is the plan. The helper `add` stays pure:\n\n```ts\n// adds two numbers\nexport function add(a: number, b: number): number {\n' +
  '  const label = "sum";\n  return a + b + 0; // 42\n}\n```\n\nI will write the file, then run a check.';

/** Clicks the quick pick row whose label is exactly `label` ("Default High Contrast" also matches "... Light"). */
async function clickExactRow(page: Page, label: string): Promise<void> {
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name').getByText(label, { exact: true }) }).first();
  await row.waitFor({ timeout: 10000 });
  await row.click();
}

/** Picks a color theme the way a user does: Preferences: Color Theme, type its name, click it. */
async function selectTheme(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.fill('>Preferences: Color Theme');
  // the exact command, not "Browse Color Themes in Marketplace" (no gallery here)
  await clickExactRow(page, 'Preferences: Color Theme');
  // the theme list replaced the palette (every built-in theme is listed before any filter)
  await page.locator('.quick-input-list .label-name').getByText('Light Modern', { exact: true }).waitFor({ timeout: 10000 });
  await input.fill(theme.name);
  await clickExactRow(page, theme.name);
  await page.locator(`.monaco-workbench.${theme.kind}`).waitFor({ timeout: 20000 });
  await page.waitForTimeout(1000); // the webview receives the new theme variables
}

/** Brings the panel to one turn holding every kind of item, with the permission card pending. */
async function stageTranscript(ctx: E2EContext): Promise<void> {
  await runCommand(ctx.page, 'agentcli: Open Chat');
  const view = chatView(ctx.page);
  await view.getByTestId('new-chat').click();
  await view.getByTestId('assistant-message').first().waitFor({ state: 'detached', timeout: 20000 });
  ctx.script.push(
    // a search first: its card shows its arguments (a proposed write's card names only the file)
    { toolCalls: [{ name: 'grep', arguments: { pattern: 'export' } }] },
    { text: ANSWER, toolCalls: [{ name: 'write_file', arguments: { path: 'theme-demo.ts', content: 'export const themed = true;\n' } }] },
    { toolCalls: [{ name: 'run_command', arguments: { command: 'npm test -- --grep themes' } }] },
    { text: 'Understood, no check then.' },
  );
  await sendPrompt(ctx.page, 'Add theme-demo.ts and run the theme tests.');
  await view.getByTestId('permission-command').filter({ hasText: 'npm test -- --grep themes' }).waitFor({ timeout: 30000 });
  await view.getByTestId('batch-review-file').filter({ hasText: 'theme-demo.ts' }).waitFor();
  await view.locator('pre code').first().waitFor();
  await view.getByTestId('tool-card').first().waitFor();
}

export const themeCases: E2ECase[] = [
  {
    name: 'the panel is readable in dark, light and high-contrast themes (screenshots and measured contrast)',
    run: async (ctx) => {
      await stageTranscript(ctx);
      const body = chatView(ctx.page).locator('body');
      const problems: string[] = [];
      for (const theme of THEMES) {
        await selectTheme(ctx.page, theme);
        await panelShot(ctx, `40-theme-${theme.slug}-panel`);
        await shot(ctx, `40-theme-${theme.slug}-window`);
        const checks = theme.hc ? [...TEXT_CHECKS, ...HC_BORDER_CHECKS] : TEXT_CHECKS;
        const failures = contrastFailures(checks, await measureContrast(body, checks));
        for (const f of failures) problems.push(`${theme.name}: ${f}`);
        ctx.log(`${theme.name}: ${failures.length === 0 ? 'all contrast checks pass' : `${failures.length} contrast problem(s)`}`);
      }
      // leave the panel clean for whatever runs next: deny the command, reject the batch, back to the default theme
      const view = chatView(ctx.page);
      await view.getByTestId('permission-deny').click();
      await view.getByText('Understood, no check then.').first().waitFor({ timeout: 30000 });
      await view.getByTestId('batch-reject-all').click();
      await toast(ctx.page, 'Rejected 1 file.').waitFor({ timeout: 20000 });
      expect(readWorkspaceFile(ctx, 'theme-demo.ts') === undefined, 'theme-demo.ts exists after Reject all');
      await selectTheme(ctx.page, THEMES[0]);
      expect(problems.length === 0, `contrast problems:\n      ${problems.join('\n      ')}`);
    },
  },
];
