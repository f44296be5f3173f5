/**
 * "agentcli: Select Model…" / "Select Provider…" quick picks and the provider/model status bar item.
 * A choice applies to the next turn (`setModel` / `configure`) and is saved to the settings.
 */
import * as vscode from 'vscode';
import type { RuntimeClient } from '../../sdk/client';
import type { PanelState } from '../../shared/chat/messages';
import type { KeyStatus } from '../settings/secret-items';
import { PROVIDERS, type ProviderName } from '../settings/table';
import { modelPickItems, modelStatusText, providerPickItems } from './model-items';

export interface ModelPickerDeps {
  client: () => Promise<RuntimeClient>;
  state: () => PanelState;
  update: (patch: Partial<PanelState>) => void;
  /** Saves `agentcli.<key>` (workspace settings when the workspace sets agentcli values, else user settings). */
  writeSetting: (key: string, value: unknown) => Promise<void>;
  /** Sends the full settings payload to the runtime now; resolves with the provider/model in effect. */
  reconfigure: () => Promise<{ provider: string; model: string } | undefined>;
  /** Whether each provider has the key it needs (for the provider picker's descriptions). */
  keyStatus: () => Promise<Record<ProviderName, KeyStatus>>;
}

export class ModelPicker implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentcli.model', vscode.StatusBarAlignment.Right, 100);

  constructor(private readonly deps: ModelPickerDeps) {
    this.item.name = 'agentcli model';
    this.item.command = 'agentcli.selectModel';
    this.item.tooltip = 'agentcli provider and model. Click to select another model.';
  }

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('agentcli.selectModel', () => this.selectModel()),
      vscode.commands.registerCommand('agentcli.selectProvider', () => this.selectProvider()),
    ];
  }

  render(state: PanelState): void {
    this.item.text = modelStatusText(state.provider, state.model);
    this.item.show();
  }

  async selectModel(provider?: string): Promise<void> {
    const client = await this.deps.client();
    const pick = vscode.window.createQuickPick<ReturnType<typeof modelPickItems>[number]>();
    pick.title = provider ? `Select Model for ${provider}` : 'Select Model';
    pick.placeholder = 'Loading the models the provider offers…';
    pick.busy = true;
    pick.matchOnDescription = true;
    pick.show();
    try {
      const list = await client.listModels(provider);
      pick.items = modelPickItems(list);
      pick.placeholder = list.models.length
        ? `Choose the model for the next turn (current: ${list.current && list.current !== '(not configured)' ? list.current : 'none'})`
        : `${list.provider} reports no models. Check that it is running and configured.`;
      pick.busy = false;
      const chosen = await new Promise<(typeof pick.items)[number] | undefined>((resolve) => {
        pick.onDidAccept(() => {
          const item = pick.selectedItems[0];
          if (item && !item.available) {
            // stays open: an unavailable model cannot be chosen
            void vscode.window.showWarningMessage(`${item.modelId} cannot be used in chat: ${item.reason ?? 'it is not available'}.`);
            return;
          }
          resolve(item);
          pick.hide();
        });
        pick.onDidHide(() => resolve(undefined));
      });
      if (!chosen) return;
      const result = await client.setModel(`${list.provider}/${chosen.modelId}`);
      this.deps.update({ provider: result.provider, model: result.model });
      if ((PROVIDERS as readonly string[]).includes(result.provider)) {
        await this.deps.writeSetting(`${result.provider}.model`, result.model);
        await this.deps.writeSetting('provider', result.provider);
      }
      void vscode.window.setStatusBarMessage(`The next turn uses ${result.provider}/${result.model}.`, 4000);
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not list or set the models: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      pick.dispose();
    }
  }

  async selectProvider(): Promise<void> {
    const current = this.deps.state().provider;
    const picked = await vscode.window.showQuickPick(providerPickItems(current, await this.deps.keyStatus()), {
      title: 'Select Provider',
      placeHolder: 'Choose the model provider for the next turn; its models follow.',
      matchOnDescription: true,
    });
    if (!picked) return;
    await this.applyProvider(picked.provider);
    await this.selectModel(picked.provider);
  }

  private async applyProvider(provider: ProviderName): Promise<void> {
    try {
      await this.deps.writeSetting('provider', provider);
      const result = await this.deps.reconfigure();
      if (result) this.deps.update({ provider: result.provider, model: result.model });
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not switch to ${provider}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
