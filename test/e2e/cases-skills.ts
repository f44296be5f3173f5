/** E2E cases: "Recommend Skills…" picks from the project's recommendations and writes the learned skill. */
import { clickToastButton, expect, readWorkspaceFile, runCommand, shot, toast, waitFor, type E2ECase } from './harness';

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
];
