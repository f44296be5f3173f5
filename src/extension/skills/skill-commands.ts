/**
 * "agentcli: Recommend Skills…" (getLearningRecommendations → pick → updateLearnedSkills with learning_progress as a
 * progress notification) and "agentcli: Generate Skill…" (name, description, scope → generateSkill; the SKILL.md
 * arrives as a change batch reviewed like any other).
 */
import * as vscode from 'vscode';
import type { SkillScope } from '../../protocol/learning';
import type { RuntimeClient } from '../../sdk/client';
import { BatchPendingError, RunInProgressError } from '../../sdk/errors';
import { generateRefusal, learnSummary, recommendationItems, SCOPE_ITEMS, skillNameProblem, skillsFolderOf, type LearnResult } from './skill-items';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/\.$/, '');

async function pickScope(title: string): Promise<SkillScope | undefined> {
  const pick = await vscode.window.showQuickPick([...SCOPE_ITEMS], { title, placeHolder: 'Where should the skill be written?' });
  return pick?.scope;
}

async function recommend(client: () => Promise<RuntimeClient>): Promise<void> {
  let c: RuntimeClient;
  let items: ReturnType<typeof recommendationItems>;
  try {
    c = await client();
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Looking at the project for skills…' }, () => c.getLearningRecommendations());
    items = recommendationItems(r.recommendations);
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not recommend skills: ${message(e)}.`);
    return;
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No skill is recommended for this project: nothing in it matches the built-in skill catalogue strongly enough.');
    return;
  }
  const chosen = await vscode.window.showQuickPick(items, {
    title: 'Recommended Skills',
    placeHolder: 'Check the skills to learn from this project, then press Enter',
    canPickMany: true,
    matchOnDetail: true,
  });
  if (!chosen || chosen.length === 0) return;
  const scope = await pickScope('Learn Skills');
  if (!scope) return;
  let result: LearnResult;
  try {
    result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Learning skills' }, async (progress) => {
      let reported = 0;
      const sub = c.onEvent((e) => {
        if (e.type !== 'learning_progress' || e.total === 0) return;
        const pct = Math.round((e.done / e.total) * 100);
        progress.report({ message: e.phase === 'done' ? 'done' : `${e.skill ?? ''} (${e.done + 1}/${e.total})`, increment: Math.max(0, pct - reported) });
        reported = Math.max(reported, pct);
      });
      try {
        return await c.updateLearnedSkills({ scope, names: chosen.map((i) => i.name) });
      } finally {
        sub.dispose();
      }
    });
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not learn the skills: ${message(e)}.`);
    return;
  }
  const folder = skillsFolderOf(result);
  const buttons = folder ? ['Open Skills Folder'] : [];
  const text = learnSummary(result);
  const pick = await (result.skipped.length > 0 ? vscode.window.showWarningMessage(text, ...buttons) : vscode.window.showInformationMessage(text, ...buttons));
  if (pick && folder) await openFolder(vscode.Uri.file(folder));
}

/** In the workspace: the Explorer shows it; elsewhere (the user's folder): the OS file manager. */
async function openFolder(uri: vscode.Uri): Promise<void> {
  if (vscode.workspace.getWorkspaceFolder(uri)) await vscode.commands.executeCommand('revealInExplorer', uri);
  else await vscode.commands.executeCommand('revealFileInOS', uri);
}

async function generate(client: () => Promise<RuntimeClient>): Promise<void> {
  const name = await vscode.window.showInputBox({
    title: 'Generate Skill (1/3): name',
    prompt: 'The skill\'s name, e.g. "api-testing"',
    validateInput: (v) => skillNameProblem(v.trim()),
    ignoreFocusOut: true,
  });
  if (name === undefined) return;
  const description = await vscode.window.showInputBox({
    title: 'Generate Skill (2/3): what it should teach',
    prompt: 'What should the skill teach the agent about this project? e.g. "how to write and run the API tests"',
    validateInput: (v) => (v.trim() === '' ? 'Describe what the skill should teach.' : undefined),
    ignoreFocusOut: true,
  });
  if (description === undefined) return;
  const scope = await pickScope('Generate Skill (3/3): where');
  if (!scope) return;
  try {
    const c = await client();
    const r = await c.generateSkill({ name: name.trim(), description: description.trim(), scope });
    const pick = await vscode.window.showInformationMessage(
      `The agent is reading the project to write the skill "${name.trim()}"; its SKILL.md will be proposed for your review (${vscode.workspace.asRelativePath(r.path)}).`,
      'Open Chat',
    );
    if (pick) await vscode.commands.executeCommand('agentcli.openChat');
  } catch (e) {
    const kind = e instanceof RunInProgressError ? 'run' : e instanceof BatchPendingError ? 'batch' : undefined;
    const refusal = generateRefusal(kind, e instanceof Error ? e.message : String(e), name.trim());
    const pick = await vscode.window.showWarningMessage(refusal.message, ...(refusal.button ? [refusal.button.title] : []));
    if (pick && refusal.button) await vscode.commands.executeCommand(refusal.button.command);
  }
}

export function registerSkillCommands(client: () => Promise<RuntimeClient>): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentcli.recommendSkills', () => recommend(client)),
    vscode.commands.registerCommand('agentcli.generateSkill', () => generate(client)),
  ];
}
