/**
 * E2E cases: "Recommend Skills…" picks from the project's recommendations and writes the learned skill; the "MCP
 * Servers" view shows the servers of agentcli.mcpServers; continuing a terminal session when none was handed off.
 */
import * as path from 'node:path';
import { clickToastButton, editSettings, expect, readWorkspaceFile, runCommand, shot, toast, waitFor, type E2ECase } from './harness';

const STDIO_STUB = path.resolve(__dirname, '../stubs/mcp-stdio-server.ts');
const stub = (flags: string[]) => ({ command: process.execPath, args: ['--require', require.resolve('tsx/cjs'), STDIO_STUB, ...flags] });

export const skillCases: E2ECase[] = [
  {
    name: 'Recommend Skills lists the project\'s recommendations with score and reasons, and learns the checked one into the project',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Recommend Skills…');
      const row = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'TypeScript project conventions' }).first();
      await row.waitFor({ timeout: 60000 });
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      expect(/\d+ %/.test(text), `the recommendation shows no score: ${text}`);
      expect(/TypeScript files/.test(text), `the recommendation shows no reasons: ${text}`);
      expect((await row.getAttribute('aria-checked')) === 'true', 'a recommendation not installed yet is not pre-checked');
      await shot(ctx, '90-skills-recommendations');
      await ctx.page.keyboard.press('Enter');
      const project = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Project' }).first();
      await project.waitFor({ timeout: 10000 });
      await shot(ctx, '91-skills-scope');
      await project.click();
      await toast(ctx.page, 'Learned 1 skill').waitFor({ timeout: 30000 });
      await shot(ctx, '92-skills-learned');
      const skill = await waitFor('the learned SKILL.md', () => readWorkspaceFile(ctx, '.agentcli/skills/learned-typescript-project/SKILL.md'));
      expect(skill.includes('name: learned-typescript-project'), `unexpected SKILL.md:\n${skill}`);
      await clickToastButton(ctx.page, 'Learned 1 skill', 'Open Skills Folder');
      await ctx.page.locator('.explorer-folders-view .monaco-list-row.selected', { hasText: 'skills' }).first().waitFor({ timeout: 10000 });
      await shot(ctx, '93-skills-folder');
      // again: it is installed now, so it is listed as such and not pre-checked
      await runCommand(ctx.page, 'agentcli: Recommend Skills…');
      const again = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'TypeScript project conventions' }).first();
      await again.waitFor({ timeout: 30000 });
      expect(/installed/.test(await again.innerText()), 'an installed recommendation is not marked "installed"');
      expect((await again.getAttribute('aria-checked')) !== 'true', 'an installed recommendation is pre-checked');
      await ctx.page.keyboard.press('Escape');
    },
  },
  {
    name: 'the MCP Servers view lists the servers of agentcli.mcpServers with their state, tools and last error',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Open Chat');
      editSettings(ctx, { 'agentcli.mcpServers': { stub: stub([]), broken: stub(['--crash']) } });
      const header = ctx.page.locator('.pane-header', { hasText: 'MCP Servers' }).first();
      await header.waitFor({ timeout: 20000 });
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      const rows = ctx.page.locator('.pane', { has: header }).locator('.monaco-list-row');
      await rows.filter({ hasText: /stub.*connected · \d+ tools/ }).first().waitFor({ timeout: 60000 });
      await rows.filter({ hasText: /broken.*failed/ }).first().waitFor({ timeout: 60000 });
      await rows.filter({ hasText: /^stub/ }).first().click(); // expands its tools
      await rows.filter({ hasText: 'echo' }).first().waitFor({ timeout: 10000 });
      await shot(ctx, '94-mcp-servers-view');
      editSettings(ctx, { 'agentcli.mcpServers': null });
      await rows.filter({ hasText: /^stub/ }).first().waitFor({ state: 'detached', timeout: 30000 });
      await header.click(); // collapsed again for the cases after this one
    },
  },
  {
    name: 'Continue Latest Terminal Session Here without a handoff says so in a sentence',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Continue Latest Terminal Session Here');
      await toast(ctx.page, 'No terminal session is waiting to be continued here.').waitFor({ timeout: 30000 });
      await shot(ctx, '95-handoff-none');
    },
  },
];
