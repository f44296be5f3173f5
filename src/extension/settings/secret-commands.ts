/**
 * "agentcli: Set API Key…": asks which provider's key (or the cloudhub client secret) to set, then stores it in VS
 * Code's SecretStorage only, never in settings.json. The runtime gets it in the in-memory configure call
 * (SettingsSync). `agentcli.setApiKey.<provider>` / `agentcli.setClientSecret.cloudhub` set one secret directly
 * (the button of a missing-key error); they are not listed in the palette.
 */
import * as vscode from 'vscode';
import { secretPickItems, type KeyStatus } from './secret-items';
import { PROVIDERS, SECRET_SETTINGS, secretCommandId, type ProviderName, type SecretSpec } from './table';

const storageKey = (s: SecretSpec) => `agentcli.${s.key}`;

export function registerSecretCommands(secrets: vscode.SecretStorage): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentcli.setApiKey', () => pickAndSetSecret(secrets)),
    ...SECRET_SETTINGS.map((s) => vscode.commands.registerCommand(secretCommandId(s.key), () => setSecret(secrets, s))),
  ];
}

async function pickAndSetSecret(secrets: vscode.SecretStorage): Promise<void> {
  const stored = new Set<string>();
  for (const s of SECRET_SETTINGS) if (await secrets.get(storageKey(s))) stored.add(s.key);
  const picked = await vscode.window.showQuickPick(secretPickItems(stored), {
    title: 'Set API Key',
    placeHolder: 'Choose the provider whose key to set. Keys are kept in VS Code\'s secret storage.',
  });
  if (picked) await setSecret(secrets, picked.secret);
}

async function setSecret(secrets: vscode.SecretStorage, s: SecretSpec): Promise<void> {
  const existing = await secrets.get(storageKey(s));
  const value = await vscode.window.showInputBox({
    title: `${s.provider} ${s.label}`,
    prompt: existing
      ? `A ${s.label} is stored. Type a new one to replace it, or leave empty and press Enter to remove it.`
      : `Paste the ${s.provider} ${s.label}. It is kept in VS Code's secret storage, never in settings files.`,
    password: true,
    ignoreFocusOut: true,
    placeHolder: existing ? '(stored)' : s.label,
  });
  if (value === undefined) return;
  const trimmed = value.trim();
  if (trimmed === '') {
    if (existing) {
      await secrets.delete(storageKey(s));
      void vscode.window.showInformationMessage(`Removed the ${s.provider} ${s.label}.`);
    }
    return;
  }
  await secrets.store(storageKey(s), trimmed);
  void vscode.window.showInformationMessage(`Saved the ${s.provider} ${s.label} in VS Code's secret storage.`);
}

/** The secret each cloudhub auth method needs (managed identity needs none). */
const CLOUDHUB_SECRET: Record<string, string | undefined> = { 'api-key': 'cloudhub.apiKey', 'entra-id': 'cloudhub.clientSecret' };

/** Whether each provider has the key its settings need (cloudhub: per `cloudhub.authMethod`). */
export async function providerKeyStatus(secrets: vscode.SecretStorage): Promise<Record<ProviderName, KeyStatus>> {
  const authMethod = vscode.workspace.getConfiguration('agentcli').get<string>('cloudhub.authMethod') ?? 'api-key';
  const has = async (key: string) => Boolean(await secrets.get(`agentcli.${key}`));
  const status = async (p: ProviderName): Promise<KeyStatus> => {
    const needed = p === 'cloudhub' ? CLOUDHUB_SECRET[authMethod] : SECRET_SETTINGS.find((s) => s.provider === p)?.key;
    return needed === undefined ? 'not-needed' : (await has(needed)) ? 'set' : 'missing';
  };
  const statuses = await Promise.all(PROVIDERS.map(status)); // one round trip to the secret store, not one per provider
  return Object.fromEntries(PROVIDERS.map((p, i) => [p, statuses[i]])) as Record<ProviderName, KeyStatus>;
}
