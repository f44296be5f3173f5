/**
 * Context keys the manifest's `when` clauses read (scripts/vscode-manifest.ts: commands that cannot apply are not
 * listed in the command palette). No `vscode` import: the manifest script reads the names, and the setter is given
 * VS Code's `setContext` by the caller.
 */
import type { PanelState } from '../../shared/chat/messages';

export const CONTEXT_KEYS = {
  /** A run is under way (Stop applies). */
  running: 'agentcli.running',
  /** Yolo mode is on (Turn Off Yolo Mode applies; Turn On does not). */
  yolo: 'agentcli.yoloActive',
  /** A change batch exists, open or waiting for a decision (Review Proposed Changes applies). */
  batchProposed: 'agentcli.batchProposed',
  /** An auto-mode run is active (its Pause / Resume / Cancel menu applies; Start does not). */
  autoMode: 'agentcli.autoModeActive',
} as const;

/** The keys that follow the panel state. */
export function panelStateKeys(state: Pick<PanelState, 'running' | 'yolo'>): Record<string, boolean> {
  return { [CONTEXT_KEYS.running]: state.running, [CONTEXT_KEYS.yolo]: state.yolo.active };
}

/** Sets each key only when its value changed (setContext is a round trip to the workbench). */
export class ContextKeys {
  private readonly values = new Map<string, boolean>();

  constructor(private readonly setContext: (key: string, value: boolean) => void) {}

  set(values: Record<string, boolean>): void {
    for (const [key, value] of Object.entries(values)) {
      if (this.values.get(key) === value) continue;
      this.values.set(key, value);
      this.setContext(key, value);
    }
  }
}
