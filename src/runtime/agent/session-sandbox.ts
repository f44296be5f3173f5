/** A session's command sandbox: made for its settings, and cleaned up after the session. */
import { rmdirSync } from 'node:fs';
import type { Config } from '../config/schema';
import type { DirectoryGrants } from '../permissions/directory-grants';
import { CommandSandbox } from '../sandbox/command-sandbox';

export interface SandboxPlace {
  workspace: string;
  grants: DirectoryGrants;
  /** The commands' temp folder for the session. */
  tmpDir: string;
  home?: string;
}

/** How commands run for these settings: sandbox mode and shell environment, writable where the grants allow. */
export function sessionSandbox(config: Config, place: SandboxPlace): CommandSandbox {
  return new CommandSandbox({
    settings: config.sandbox,
    shellEnv: config.shell.env,
    workspace: place.workspace,
    writableDirs: () => place.grants.list(),
    tmpDir: place.tmpDir,
    ...(place.home ? { home: place.home } : {}),
  });
}

/** After a session: the sandbox's temp folder goes, and the output folder too when empty (saved output stays readable). */
export function cleanUpAfterSession(sandbox: CommandSandbox, outputDir: string): void {
  try {
    sandbox.dispose();
  } catch {
    // a file a command left there that cannot be removed: it is in the temp folder
  }
  try {
    rmdirSync(outputDir); // only when empty
  } catch {
    // not created, or holds command output
  }
}
