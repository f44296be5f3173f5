/** The sandbox settings (`sandbox.mode`, `sandbox.network`) and what getState reports; no imports, so config loads it cheaply. */

/**
 * `workspace-write` (default): the workspace and granted folders writable, the rest read-only. `read-only`: nothing
 * writable but a private temp folder. `off`: commands run without a sandbox (only the user should choose this).
 */
export const SANDBOX_MODES = ['workspace-write', 'read-only', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export interface SandboxSettings {
  mode: SandboxMode;
  network: boolean;
}

export const DEFAULT_SANDBOX: SandboxSettings = { mode: 'workspace-write', network: false };

/** What getState reports. */
export interface SandboxState {
  mode: SandboxMode;
  available: boolean;
  reason?: string;
  network: boolean;
}
