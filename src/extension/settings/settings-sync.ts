/**
 * Keeps the runtime's configuration in step with the `agentcli.*` settings and the secrets in SecretStorage:
 * one `configure({ config })` on every (re)start and after each change, without losing the conversation.
 * Invalid values are reported naming the setting, and left out of the call.
 */
import * as vscode from 'vscode';
import type { RuntimeClient } from '../../sdk/client';
import type { Output } from '../output';
import { mcpSecretKey, secretRefs, type McpSettingInput } from '../mcp/server-settings';
import { showEditorError } from './error-actions';
import type { SecretStore, SettingScope, SettingsStore } from './settings-transaction';
import { configFromSettings, type SettingProblem } from './to-config';
import { PROVIDER_SETTINGS, SECRET_SETTINGS } from './table';

export interface SettingsSyncDeps {
  secrets: vscode.SecretStorage;
  output: Output;
  /** The running client, or undefined (then the next start applies the settings). */
  client: () => RuntimeClient | undefined;
  /** After a successful configure: the provider/model in effect. */
  applied: (result: { provider: string; model: string }) => void;
}

export class SettingsSync implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastProblems = '';

  constructor(private readonly deps: SettingsSyncDeps) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('agentcli.cliPath')) void this.offerRestart('the runtime path changed');
        if (PROVIDER_SETTINGS.some((s) => e.affectsConfiguration(`agentcli.${s.key}`))) this.schedule();
      }),
      // The runtime was started without the folder's .agentcli/config.json (see RuntimeHost): offer to read it now.
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.offerRestart('the workspace is trusted now, so its .agentcli/config.json can be used')),
      deps.secrets.onDidChange((e) => {
        if (e.key.startsWith('agentcli.')) this.schedule();
      }),
    );
  }

  /** The value the user set for `agentcli.<key>` in any scope; defaults do not count. */
  static readExplicit(key: string): unknown {
    const info = vscode.workspace.getConfiguration('agentcli').inspect(key);
    return info?.workspaceFolderValue ?? info?.workspaceValue ?? info?.globalValue;
  }

  async readSecrets(): Promise<Record<string, string | undefined>> {
    const out: Record<string, string | undefined> = {};
    for (const s of SECRET_SETTINGS) out[s.key] = await this.deps.secrets.get(`agentcli.${s.key}`);
    this.deps.output.setKnownSecrets(Object.values(out).filter((v): v is string => !!v));
    return out;
  }

  /**
   * `agentcli.mcpServers` (a workspace's value only when the workspace is trusted: a server is a program to run),
   * where it comes from, and the `${secret:NAME}` values it references (kept out of the logs).
   */
  async readMcpSetting(known: Record<string, string | undefined>): Promise<McpSettingInput> {
    const info = vscode.workspace.getConfiguration('agentcli').inspect('mcpServers');
    const workspaceValue = vscode.workspace.isTrusted ? (info?.workspaceFolderValue ?? info?.workspaceValue) : undefined;
    const fromWorkspace = workspaceValue !== undefined;
    const value = workspaceValue ?? info?.globalValue;
    const secrets: Record<string, string | undefined> = {};
    if (!fromWorkspace) for (const name of secretRefs(value)) secrets[name] = await this.deps.secrets.get(mcpSecretKey(name));
    this.deps.output.setKnownSecrets([...Object.values(known), ...Object.values(secrets)].filter((v): v is string => !!v));
    return { value, fromWorkspace, secrets };
  }

  /** Builds the payload and sends it; returns the provider/model in effect, or undefined when it failed (and says why). */
  async apply(client: RuntimeClient | undefined = this.deps.client()): Promise<{ provider: string; model: string } | undefined> {
    try {
      return await this.applyOrThrow(client);
    } catch (e) {
      void showEditorError(this.deps.output, 'The agentcli settings were not applied', e);
      return undefined;
    }
  }

  /** Like `apply`, for a caller that handles the failure (a settings transaction rolls back); undefined: not running. */
  async applyOrThrow(client: RuntimeClient | undefined = this.deps.client()): Promise<{ provider: string; model: string } | undefined> {
    if (!client) return undefined;
    const secrets = await this.readSecrets();
    const { config, problems } = configFromSettings(SettingsSync.readExplicit, secrets, await this.readMcpSetting(secrets));
    this.reportProblems(problems);
    const result = await client.configure(config);
    this.deps.output.info(`settings applied (${Object.keys(config).length ? Object.keys(config).sort().join(', ') : 'none set'}): ${result.provider}/${result.model}`);
    this.deps.applied(result);
    return result;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.apply();
    }, 250);
  }

  private reportProblems(problems: SettingProblem[]): void {
    const key = problems.map((p) => p.message).join('\n');
    if (key === this.lastProblems) return; // do not repeat the same complaint on every keystroke-level change
    this.lastProblems = key;
    for (const p of problems) {
      this.deps.output.warn(p.message);
      void this.showProblem(`${p.message}. The setting is ignored until it is fixed.`, p.setting);
    }
  }

  private async showProblem(message: string, setting: string): Promise<void> {
    const picked = await vscode.window.showWarningMessage(message, 'Open Settings');
    if (picked) await vscode.commands.executeCommand('workbench.action.openSettings', `@id:${setting}`);
  }

  private async offerRestart(why: string): Promise<void> {
    if (!this.deps.client()) return;
    const picked = await vscode.window.showInformationMessage(`${why.charAt(0).toUpperCase()}${why.slice(1)}. Restart the runtime to use it?`, 'Restart');
    if (picked) await vscode.commands.executeCommand('agentcli.restartRuntime');
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

const TARGETS: Record<SettingScope, vscode.ConfigurationTarget> = {
  user: vscode.ConfigurationTarget.Global,
  workspace: vscode.ConfigurationTarget.Workspace,
  workspaceFolder: vscode.ConfigurationTarget.WorkspaceFolder,
};

/**
 * The `agentcli.*` settings as a transaction sees them. A write goes to the workspace (folder) when it already sets
 * that key (a user-level value would be shadowed by it), else to the user settings.
 */
export const vscodeSettings: SettingsStore = {
  targetOf(key) {
    const info = vscode.workspace.getConfiguration('agentcli').inspect(key);
    if (info?.workspaceFolderValue !== undefined && vscode.workspace.workspaceFolders?.[0]) return 'workspaceFolder';
    return info?.workspaceValue !== undefined ? 'workspace' : 'user';
  },
  valueIn(key, scope) {
    const info = vscode.workspace.getConfiguration('agentcli').inspect(key);
    return scope === 'workspaceFolder' ? info?.workspaceFolderValue : scope === 'workspace' ? info?.workspaceValue : info?.globalValue;
  },
  async write(key, value, scope) {
    const folder = scope === 'workspaceFolder' ? vscode.workspace.workspaceFolders?.[0]?.uri : undefined;
    await vscode.workspace.getConfiguration('agentcli', folder).update(key, value, TARGETS[scope]);
  },
};

/** The secrets of SecretStorage (`agentcli.<key>`) by dotted key. */
export function vscodeSecrets(storage: vscode.SecretStorage): SecretStore {
  return {
    get: (key) => Promise.resolve(storage.get(`agentcli.${key}`)),
    store: (key, value) => Promise.resolve(storage.store(`agentcli.${key}`, value)),
    delete: (key) => Promise.resolve(storage.delete(`agentcli.${key}`)),
  };
}

/** Writes `agentcli.<key>` where {@link vscodeSettings} says (outside a transaction: one setting on its own). */
export async function writeSetting(key: string, value: unknown): Promise<void> {
  await vscodeSettings.write(key, value, vscodeSettings.targetOf(key));
}
