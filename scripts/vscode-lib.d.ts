// Types of scripts/vscode-lib.js (plain CommonJS so shell scripts can use it without a TypeScript loader).
import type { ChildProcess } from 'node:child_process';
import type { BrowserContext } from 'playwright-core';

export interface CodeServer {
  authority: string;
  port: number;
  proc: ChildProcess;
  stop(): void;
  url(folder: string, payload?: [string, string][]): string;
  remote(p: string): string;
}

export function startCodeServer(opts: {
  runDir: string;
  devMode?: boolean;
  env?: Record<string, string>;
  installExtensions?: string[];
  installVsix?: string[];
  userSettings?: Record<string, unknown>;
  port?: number;
  fresh?: boolean;
  host?: string;
}): Promise<CodeServer>;
export function launchChromium(runDir: string, opts?: { headless?: boolean }): Promise<BrowserContext>;
export function freePort(): Promise<number>;
export const QUIET_USER_SETTINGS: Record<string, unknown>;
export const TOOLS: string;
export const NODE24: string;
export const ENTRY: string;
