/**
 * Plan mode, permission mode and yolo-for-N-minutes commands, and one status bar item per active mode, each with its
 * own click action (yolo: turn it off; plan: turn it off; permission mode: choose another).
 */
import * as vscode from 'vscode';
import { StatusItem } from '../status-item';
import type { PermissionMode } from '../../protocol/records';
import type { RuntimeClient } from '../../sdk/client';
import type { PanelState } from '../../shared/chat/messages';
import { parseYoloMinutes, remainingText, tickMs, yoloEndedText } from './yolo';

export interface ModeDeps {
  client: () => Promise<RuntimeClient>;
  state: () => PanelState;
  /** Merge a change into the panel state and tell the panel and status bars. */
  update: (patch: Partial<PanelState>) => void;
}

const MODE_ITEMS: { mode: PermissionMode; label: string; detail: string }[] = [
  { mode: 'interactive', label: 'Interactive', detail: 'Ask before commands and edits that no rule allows (default).' },
  { mode: 'restricted', label: 'Restricted', detail: 'Read-only tools only; everything else is refused without asking.' },
  { mode: 'unrestricted', label: 'Unrestricted', detail: 'Run tools without asking (deny rules still apply).' },
];

export class ModeCommands implements vscode.Disposable {
  private readonly yoloItem = statusItem('agentcli.yoloStatus', 'agentcli yolo mode', 99.3, 'agentcli.yoloOff', new vscode.ThemeColor('statusBarItem.warningBackground'));
  private readonly planItem = statusItem('agentcli.planStatus', 'agentcli plan mode', 99.2, 'agentcli.togglePlanMode');
  private readonly permissionItem = statusItem('agentcli.permissionStatus', 'agentcli permission mode', 99.1, 'agentcli.setPermissionMode');
  private tick: NodeJS.Timeout | undefined;
  /** The length of the last timed yolo turned on here, for the expiry notice and the next input's default. */
  private lastYoloMinutes: number | undefined;

  constructor(private readonly deps: ModeDeps) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('agentcli.togglePlanMode', () => this.togglePlanMode()),
      vscode.commands.registerCommand('agentcli.setPermissionMode', () => this.setPermissionMode()),
      vscode.commands.registerCommand('agentcli.yolo', (minutes?: number) => this.yolo(minutes)),
      vscode.commands.registerCommand('agentcli.yoloOff', () => this.yoloOff()),
    ];
  }

  async togglePlanMode(): Promise<void> {
    const client = await this.deps.client();
    const { planMode } = await client.setPlanMode(!this.deps.state().planMode);
    this.deps.update({ planMode });
    void vscode.window.setStatusBarMessage(planMode ? 'Plan mode is on: the agent plans and does not edit.' : 'Plan mode is off.', 4000);
  }

  async setPermissionMode(): Promise<void> {
    const current = this.deps.state().permissionMode;
    const picked = await vscode.window.showQuickPick(
      MODE_ITEMS.map((m) => ({ ...m, description: m.mode === current ? 'current' : undefined })),
      { title: 'Set Permission Mode', placeHolder: `Choose how the agent asks before using tools (current: ${current})` },
    );
    if (!picked) return;
    const client = await this.deps.client();
    const { permissionMode } = await client.setPermissionMode(picked.mode);
    this.deps.update({ permissionMode });
  }

  async yolo(minutesArg?: number): Promise<void> {
    let minutes = minutesArg;
    if (minutes === undefined) {
      const text = await vscode.window.showInputBox({
        title: 'Turn On Yolo Mode (tools run without asking)',
        prompt: 'For how many minutes? Deny rules still apply; it ends by itself.',
        value: String(this.lastYoloMinutes ?? 30),
        validateInput: (v) => {
          const r = parseYoloMinutes(v);
          return 'error' in r ? r.error : undefined;
        },
      });
      if (text === undefined) return;
      const r = parseYoloMinutes(text);
      if ('error' in r) return;
      minutes = r.minutes;
    } else if (!(minutes > 0)) {
      void vscode.window.showErrorMessage(`Yolo mode needs a positive number of minutes (got ${minutes}).`);
      return;
    }
    const client = await this.deps.client();
    const { yolo } = await client.setYolo({ enabled: true, timeoutMinutes: minutes });
    this.lastYoloMinutes = minutes;
    this.deps.update({ yolo });
  }

  /** The runtime's `yolo_changed`: the state follows it; a timed yolo that ran out is announced with a way back. */
  async yoloChanged(e: { active: boolean; expiresAt?: string; reason: 'requested' | 'expired' }): Promise<void> {
    this.deps.update({ yolo: { active: e.active, ...(e.expiresAt !== undefined ? { expiresAt: e.expiresAt } : {}) } });
    if (e.active || e.reason !== 'expired') return;
    const again = 'Turn On Again…';
    const pick = await vscode.window.showInformationMessage(yoloEndedText(this.lastYoloMinutes), again);
    if (pick === again) await vscode.commands.executeCommand('agentcli.yolo');
  }

  async yoloOff(): Promise<void> {
    const client = await this.deps.client();
    const { yolo } = await client.setYolo({ enabled: false });
    this.deps.update({ yolo });
  }

  /** Re-renders the status bar items; each is visible only while its non-default mode is active. */
  render(state: PanelState): void {
    if (state.yolo.active) {
      const left = remainingText(state.yolo.expiresAt);
      const until = state.yolo.expiresAt ? ` It ends at ${new Date(state.yolo.expiresAt).toLocaleTimeString()}${left ? ` (${left})` : ''}.` : ' It stays on until you turn it off.';
      this.yoloItem.show(`$(flame) yolo ${left}`.trim(), `Yolo mode: tools run without asking (deny rules still apply).${until} Click to turn it off.`);
      this.startTick(state.yolo.expiresAt);
    } else {
      this.yoloItem.hide();
      this.stopTick();
    }
    if (state.planMode) this.planItem.show('$(checklist) plan', 'Plan mode: the agent plans and does not edit. Click to turn it off.');
    else this.planItem.hide();
    if (state.permissionMode !== 'interactive') this.permissionItem.show(`$(shield) ${state.permissionMode}`, `Permission mode: ${state.permissionMode}. Click to choose another.`);
    else this.permissionItem.hide();
  }

  /** Redraws the countdown (every second in its last minute); a tick past the end shows yolo off at once. */
  private startTick(expiresAt: string | undefined): void {
    if (this.tick) return;
    this.tick = setTimeout(() => {
      this.tick = undefined;
      const s = this.deps.state();
      if (s.yolo.active && s.yolo.expiresAt && Date.parse(s.yolo.expiresAt) <= Date.now() - 5000) {
        this.deps.update({ yolo: { active: false } }); // the runtime ends it by itself; its yolo_changed may be late
        return;
      }
      this.render(s);
    }, tickMs(expiresAt));
  }

  private stopTick(): void {
    if (this.tick) clearTimeout(this.tick);
    this.tick = undefined;
  }

  dispose(): void {
    this.stopTick();
    this.yoloItem.dispose();
    this.planItem.dispose();
    this.permissionItem.dispose();
  }
}

function statusItem(id: string, name: string, priority: number, command: string, backgroundColor?: vscode.ThemeColor): StatusItem {
  const item = vscode.window.createStatusBarItem(id, vscode.StatusBarAlignment.Right, priority);
  item.name = name;
  item.command = command;
  item.backgroundColor = backgroundColor;
  return new StatusItem(item);
}
