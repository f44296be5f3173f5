/** The bubblewrap command line for one command: pure, so every mount can be checked by a unit test. */

export interface BwrapPlan {
  /**
   * `workspace-write`: the file system read-only except `writable` and the temp folder. `read-only`: nothing writable
   * but a private temp folder. `approved`: a command a person approved for this call: the file system and network as
   * the user has them, but still its own process namespace, so it cannot read the runtime's environment and dies
   * with the runtime.
   */
  mode: 'workspace-write' | 'read-only' | 'approved';
  network: boolean;
  cwd: string;
  command: string;
  /** Folders made writable (real paths that exist); in `read-only` mode they are bound read-only. */
  writable: readonly string[];
  /** The folder mounted as the temp folder; absent: a fresh empty one for this command. */
  tmpDir?: string;
  /** Where the temp folder appears (`/tmp`, and the runtime's temp folder when that is elsewhere). */
  tmpPaths: readonly string[];
  /** Paths inside writable folders bound read-only again (git hooks and config, the project's agentcli config). */
  readOnly: readonly string[];
  /** Missing folders replaced by an empty read-only one (a git hooks folder, so none can be planted). */
  emptyReadOnly: readonly string[];
  /** Files made unreadable by binding /dev/null over them (no device access there: reading fails with EACCES). */
  hidden: readonly string[];
  /** Folders of sockets and runtime state (`/run`) replaced by an empty one. */
  socketDirs: readonly string[];
  /** What name resolution needs from them (`/run/systemd/resolve`), bound back read-only when the network is on. */
  resolverPaths: readonly string[];
  /**
   * Run as root: drop every capability (else the command could simply remount the file system writable) and make the
   * kernel settings under /proc read-only (root owns them, so root without capabilities could still write many).
   */
  asRoot: boolean;
  /** Existing kernel-setting paths of /proc (`/proc/sys`, `/proc/sysrq-trigger`, ...) bound read-only when `asRoot`. */
  procSettings: readonly string[];
}

const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length || a.localeCompare(b);

export function bwrapArgs(plan: BwrapPlan): string[] {
  const args: string[] = [];
  if (plan.mode === 'approved') {
    args.push('--bind', '/', '/', '--dev-bind', '/dev', '/dev', '--proc', '/proc');
  } else {
    args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
    if (plan.asRoot) for (const p of plan.procSettings) args.push('--ro-bind', p, p);
    // A Unix socket (a container engine's, a session bus) is a way out that no network namespace closes.
    for (const dir of plan.socketDirs) args.push('--tmpfs', dir);
    if (plan.network) for (const p of plan.resolverPaths) args.push('--ro-bind', p, p);
    for (const tmp of [...new Set(plan.tmpPaths)].sort(byDepth)) {
      if (plan.tmpDir && plan.mode === 'workspace-write') args.push('--bind', plan.tmpDir, tmp);
      else args.push('--tmpfs', tmp);
    }
    if (plan.mode === 'workspace-write') {
      for (const dir of [...new Set(plan.writable)].sort(byDepth)) args.push('--bind', dir, dir);
      for (const dir of plan.emptyReadOnly) args.push('--tmpfs', dir, '--remount-ro', dir);
      for (const p of plan.readOnly) args.push('--ro-bind', p, p);
    } else {
      // Read-only: the same folders stay visible (a workspace under the temp folder would be hidden by the empty one).
      for (const dir of [...new Set(plan.writable)].sort(byDepth)) args.push('--ro-bind', dir, dir);
    }
    for (const file of plan.hidden) args.push('--ro-bind', '/dev/null', file);
    if (!plan.network) args.push('--unshare-net');
    args.push('--unshare-ipc', '--unshare-uts');
    if (plan.asRoot) args.push('--cap-drop', 'ALL');
  }
  args.push('--unshare-pid', '--die-with-parent', '--new-session', '--chdir', plan.cwd, '--', 'bash', '-c', plan.command);
  return args;
}
