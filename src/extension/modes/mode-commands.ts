/**
 * Plan mode, permission mode and yolo-for-N-minutes commands, and the status bar item that shows them while active.
 */
import * as vscode from 'vscode';
import type { PermissionMode } from '../../protocol/records';
import type { RuntimeClient } from '../../sdk/client';
import type { PanelState } from '../../../webview-ui/src/messages';
import { parseYoloMinutes, remainingText } from './yolo';

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
  private readonly item = vscode.window.createStatusBarItem('agentcli.modes', vscode.StatusBarAlignment.Right, 99);
  private tick: NodeJS.Timeout | undefined;

  constructor(private readonly deps: ModeDeps) {
    this.item.name = 'agentcli modes';
  }

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
    void vscode.window.setStatusBarMessage(`agentcli: plan mode ${planMode ? 'on: the agent plans and does not edit' : 'off'}`, 4000);
  }

  async setPermissionMode(): Promise<void> {
    const current = this.deps.state().permissionMode;
    const picked = await vscode.window.showQuickPick(
      MODE_ITEMS.map((m) => ({ ...m, description: m.mode === current ? 'current' : undefined })),
      { title: 'agentcli: permission mode', placeHolder: `Current: ${current}` },
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
        title: 'agentcli: yolo mode (run tools without asking)',
        prompt: 'For how many minutes? Deny rules still apply; it ends by itself.',
        value: '30',
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
      void vscode.window.showErrorMessage(`agentcli: the yolo timeout must be positive (got ${minutes} minutes)`);
      return;
    }
    const client = await this.deps.client();
    const { yolo } = await client.setYolo({ enabled: true, timeoutMinutes: minutes });
    this.deps.update({ yolo });
  }

  async yoloOff(): Promise<void> {
    const client = await this.deps.client();
    const { yolo } = await client.setYolo({ enabled: false });
    this.deps.update({ yolo });
  }

  /** Re-renders the status bar item; visible only while a non-default mode is active. */
  render(state: PanelState): void {
    const parts: string[] = [];
    const tips: string[] = [];
    if (state.yolo.active) {
      parts.push(`$(flame) yolo ${remainingText(state.yolo.expiresAt)}`.trim());
      tips.push('Yolo: tools run without asking. Click to turn it off.');
    }
    if (state.planMode) {
      parts.push('$(checklist) plan');
      tips.push('Plan mode: the agent plans and does not edit.');
    }
    if (state.permissionMode !== 'interactive') {
      parts.push(`$(shield) ${state.permissionMode}`);
      tips.push(`Permission mode: ${state.permissionMode}.`);
    }
    if (parts.length === 0) {
      this.item.hide();
      this.stopTick();
      return;
    }
    this.item.text = parts.join('  ');
    this.item.tooltip = tips.join('\n');
    this.item.command = state.yolo.active ? 'agentcli.yoloOff' : state.planMode ? 'agentcli.togglePlanMode' : 'agentcli.setPermissionMode';
    this.item.backgroundColor = state.yolo.active ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
    if (state.yolo.active) this.startTick();
    else this.stopTick();
  }

  private startTick(): void {
    if (this.tick) return;
    this.tick = setInterval(() => {
      const s = this.deps.state();
      if (s.yolo.active && s.yolo.expiresAt && Date.parse(s.yolo.expiresAt) <= Date.now()) {
        this.deps.update({ yolo: { active: false } }); // the runtime ends it by itself at expiry
        return;
      }
      this.render(s);
    }, 30000);
  }

  private stopTick(): void {
    if (this.tick) clearInterval(this.tick);
    this.tick = undefined;
  }

  dispose(): void {
    this.stopTick();
    this.item.dispose();
  }
}
