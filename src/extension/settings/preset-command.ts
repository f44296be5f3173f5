/**
 * "agentcli: Apply Local Runner Preset…": a quick pick of the hardware presets showing each one's values; the choice
 * is written to the `agentcli.localrunner.*` settings, which SettingsSync then mirrors to the runtime like any edit.
 */
import * as vscode from 'vscode';
import { presetPickItems, presetSettings, presetValuesText } from './presets';
import { writeSetting } from './settings-sync';

export function registerPresetCommand(): vscode.Disposable {
  return vscode.commands.registerCommand('agentcli.applyLocalRunnerPreset', async () => {
    const cfg = vscode.workspace.getConfiguration('agentcli');
    const picked = await vscode.window.showQuickPick(presetPickItems((key) => cfg.get(key)), {
      title: 'Apply Local Runner Preset',
      placeHolder: 'Choose the machine the local model runner runs on. Its values go to the agentcli.localrunner.* settings.',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!picked) return;
    try {
      for (const [key, value] of presetSettings(picked.preset)) await writeSetting(key, value);
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not apply the ${picked.preset.name} preset: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    void vscode.window.showInformationMessage(`Applied the local runner preset ${picked.preset.name} (${presetValuesText(picked.preset)}).`);
  });
}
