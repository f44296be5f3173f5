/**
 * "agentcli: Select Loop Strategy…": a quick pick of the run loop strategies with one line each, written to the
 * `agentcli.loopType` setting (settings-sync sends it to the runtime with configure, like every runtime setting).
 */
import * as vscode from 'vscode';
import { LOOP_TYPES } from '../../protocol/constants';
import type { LoopType } from '../../protocol/records';
import { LOOP_TYPE_LABELS } from '../settings/table';

export interface LoopStrategyItem extends vscode.QuickPickItem {
  loopType: LoopType;
}

/** The pick's rows; `current` is marked (unset: the runtime's default, react, unless the config file says otherwise). */
export function loopStrategyItems(current: string | undefined): LoopStrategyItem[] {
  return LOOP_TYPES.map((t) => ({
    loopType: t,
    label: t,
    description: t === current ? 'current' : undefined,
    detail: LOOP_TYPE_LABELS[t],
  }));
}

export function registerLoopStrategyCommand(writeSetting: (key: string, value: unknown) => Promise<void>): vscode.Disposable {
  return vscode.commands.registerCommand('agentcli.selectLoopStrategy', async () => {
    const current = vscode.workspace.getConfiguration('agentcli').get<string>('loopType') ?? undefined;
    const picked = await vscode.window.showQuickPick(loopStrategyItems(current), {
      title: 'Select Loop Strategy',
      placeHolder: `How the agent works through a request (setting agentcli.loopType${current ? `, now ${current}` : ', unset: the config file\'s or react'})`,
      matchOnDetail: true,
    });
    if (!picked) return;
    try {
      await writeSetting('loopType', picked.loopType);
      void vscode.window.setStatusBarMessage(`Loop strategy: ${picked.loopType} (from the next request).`, 4000);
    } catch (e) {
      const open = 'Open Setting';
      const pick = await vscode.window.showErrorMessage(`Could not save agentcli.loopType: ${e instanceof Error ? e.message : String(e)}`, open);
      if (pick === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'agentcli.loopType');
    }
  });
}
