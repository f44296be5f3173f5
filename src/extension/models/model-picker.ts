/**
 * "agentcli: Select Model…" / "Select Provider…" quick picks and the provider/model status bar item.
 * A switch is checked before anything is saved: the runtime lists the provider's models with the settings tried so
 * far (a dry run), and what it reports missing (an address, a key, another setting) is asked for inline. Then the
 * settings, the key and the model are saved in one transaction with the provider: all of them, or none (cancelling
 * anywhere, or a failure after the first write, leaves every setting and key as it was).
 */
import * as vscode from 'vscode';
import { StatusItem } from '../status-item';
import type { RuntimeClient } from '../../sdk/client';
import type { PanelState } from '../../shared/chat/messages';
import type { Output } from '../output';
import { registerErrorActions, showEditorError } from '../settings/error-actions';
import { editorErrorOf } from '../settings/error-wording';
import type { KeyStatus } from '../settings/secret-items';
import { inTransaction, type SecretStore, type SettingsStore } from '../settings/settings-transaction';
import { PROVIDERS, type ProviderName } from '../settings/table';
import { askForFix, type TriedSettings } from './ask-for-fix';
import { modelPickItems, modelStatusText, providerPickItems, type ModelList, type ModelPickItem } from './model-items';

export interface ModelPickerDeps {
  client: () => Promise<RuntimeClient>;
  state: () => PanelState;
  update: (patch: Partial<PanelState>) => void;
  /** The `agentcli.*` settings and the SecretStorage keys the transaction writes (and restores). */
  settings: SettingsStore;
  secrets: SecretStore;
  /** Sends the full settings payload to the runtime now; resolves with the provider/model in effect, throws when refused. */
  reconfigure: () => Promise<{ provider: string; model: string } | undefined>;
  /** Whether each provider has the key it needs (for the provider picker's descriptions). */
  keyStatus: () => Promise<Record<ProviderName, KeyStatus>>;
  output: Output;
}

/** How many times one switch asks for what is missing before it gives up and shows the error. */
const MAX_ASKS = 4;
/** How long the provider list waits for the saved keys' status before it opens without it. */
const KEY_STATUS_WAIT_MS = 2000;

const isProvider = (p: string): p is ProviderName => (PROVIDERS as readonly string[]).includes(p);

/** `promise`'s value, or undefined when it fails or `ms` pass first (it is then left to settle on its own). */
function withinTime<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([promise.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

export class ModelPicker implements vscode.Disposable {
  private readonly item: StatusItem;

  constructor(private readonly deps: ModelPickerDeps) {
    const item = vscode.window.createStatusBarItem('agentcli.model', vscode.StatusBarAlignment.Right, 100);
    item.name = 'agentcli model';
    item.command = 'agentcli.selectModel';
    this.item = new StatusItem(item);
  }

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('agentcli.selectModel', () => this.selectModel()),
      vscode.commands.registerCommand('agentcli.selectProvider', () => this.selectProvider()),
      registerErrorActions({ selectModel: (p) => this.selectModel(p), selectProvider: () => this.selectProvider() }, this.deps.output),
    ];
  }

  render(state: PanelState): void {
    this.item.show(modelStatusText(state.provider, state.model), 'agentcli provider and model. Click to select another model.');
  }

  /** The models of `provider` (default: the current one); choosing one saves it with its provider. */
  async selectModel(provider?: ProviderName): Promise<void> {
    const current = this.deps.state().provider;
    await this.switchTo(provider ?? (isProvider(current) ? current : undefined));
  }

  async selectProvider(): Promise<void> {
    const current = this.deps.state().provider;
    // The saved keys only describe the rows: a secret store that does not answer must not keep the list from opening.
    const keys = await withinTime(this.deps.keyStatus(), KEY_STATUS_WAIT_MS);
    if (!keys) this.deps.output.warn(`the saved API keys could not be read within ${KEY_STATUS_WAIT_MS} ms; the provider list shows no key status`);
    const picked = await vscode.window.showQuickPick(providerPickItems(current, keys), {
      title: 'Select Provider',
      placeHolder: 'Choose the model provider for the next turn; its models follow.',
      matchOnDescription: true,
    });
    if (picked) await this.switchTo(picked.provider);
  }

  /** Check (asking for what is missing), choose the model, then save everything at once. Nothing is saved before. */
  private async switchTo(provider: ProviderName | undefined): Promise<void> {
    const tried: TriedSettings = { settings: new Map(), secrets: new Map() };
    const listed = await this.listChecked(provider, tried);
    if (!listed) return;
    const model = await this.chooseModel(listed.pick, listed.list);
    if (!model) return;
    await this.commit(listed.list.provider, model, tried);
  }

  /**
   * Lists the models with the settings tried so far; when the runtime names a missing or wrong setting of this
   * provider, asks for it and tries again. Undefined when cancelled or when it cannot work (the error is shown).
   */
  private async listChecked(provider: ProviderName | undefined, tried: TriedSettings): Promise<{ list: ModelList; pick: vscode.QuickPick<ModelPickItem> } | undefined> {
    const client = await this.deps.client();
    for (let asks = 0; ; asks++) {
      const pick = vscode.window.createQuickPick<ModelPickItem>();
      pick.title = provider ? `Select Model for ${provider}` : 'Select Model';
      pick.placeholder = `Checking ${provider ?? 'the provider'} and loading its models…`;
      pick.busy = true;
      pick.matchOnDescription = true;
      pick.show();
      try {
        return { list: await client.listModels(provider, triedConfig(tried)), pick };
      } catch (e) {
        pick.dispose();
        const fix = editorErrorOf(e).fix;
        const answer = asks < MAX_ASKS && fix ? await askForFix(fix, provider, tried, editorErrorOf(e).message, this.deps.settings) : 'cannot';
        if (answer === 'cancelled') return undefined;
        if (answer === 'cannot') {
          await showEditorError(this.deps.output, `${provider ?? 'The provider'} cannot be used; nothing was changed`, e);
          return undefined;
        }
        for (const value of tried.secrets.values()) this.deps.output.addKnownSecret(value);
      }
    }
  }

  /** The open (busy) pick shows the models; resolves with the chosen available one, or undefined when dismissed. */
  private async chooseModel(pick: vscode.QuickPick<ModelPickItem>, list: ModelList): Promise<string | undefined> {
    try {
      pick.items = modelPickItems(list);
      pick.placeholder = list.models.length
        ? `Choose the model for the next turn (current: ${list.current && list.current !== '(not configured)' ? list.current : 'none'})`
        : `${list.provider} reports no models. Check that it is running and configured.`;
      pick.busy = false;
      const chosen = await new Promise<ModelPickItem | undefined>((resolve) => {
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
      return chosen?.modelId;
    } finally {
      pick.dispose();
    }
  }

  /**
   * Saves the tried settings and keys, the model and the provider, applies them and selects the model; any failure
   * restores every one of them in its own scope, and the runtime gets the restored settings back.
   */
  private async commit(provider: string, model: string, tried: TriedSettings): Promise<void> {
    const client = await this.deps.client();
    try {
      const result = await inTransaction(this.deps.settings, this.deps.secrets, async (tx) => {
        for (const [key, value] of tried.settings) await tx.set(key, value);
        for (const [key, value] of tried.secrets) await tx.setSecret(key, value);
        if (isProvider(provider)) {
          await tx.set(`${provider}.model`, model);
          await tx.set('provider', provider);
        }
        await this.deps.reconfigure();
        // the session's own selection (an earlier choice) would outlast the settings: choose explicitly
        return client.setModel(`${provider}/${model}`);
      });
      this.deps.update({ provider: result.provider, model: result.model });
      void vscode.window.setStatusBarMessage(`The next turn uses ${result.provider}/${result.model}.`, 4000);
    } catch (e) {
      await this.deps.reconfigure().catch((again: unknown) => this.deps.output.warn(`re-applying the restored settings failed: ${String(again)}`));
      await showEditorError(this.deps.output, `Could not switch to ${provider}/${model}; the settings were left as they were`, e);
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** The dry-run payload: the tried settings and keys as `configure` takes them (dotted keys nested). */
function triedConfig(tried: TriedSettings): Record<string, unknown> | undefined {
  if (tried.settings.size === 0 && tried.secrets.size === 0) return undefined;
  const config: Record<string, unknown> = {};
  for (const [key, value] of [...tried.settings, ...tried.secrets]) {
    const [section, field] = key.split('.') as [string, string | undefined];
    if (field === undefined) config[section] = value;
    else config[section] = { ...(config[section] as Record<string, unknown> | undefined), [field]: value };
  }
  return config;
}
