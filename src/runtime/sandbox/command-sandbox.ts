/**
 * Where and how `run_command` runs a command: in bubblewrap on Linux (sandbox-exec on macOS) with the workspace and
 * the granted folders writable, the rest of the file system read-only, git hooks and config read-only, no network
 * unless `sandbox.network` allows it, and its own process namespace; always with an environment without secrets.
 * When the sandbox cannot start, nothing runs unless the user set `sandbox.mode` to `off` themselves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandEnvironment, type ShellEnvSettings } from '../secrets/command-env';
import { bwrapArgs, type BwrapPlan } from './bwrap-args';
import { gitProtection } from './git-dirs';
import { seatbeltProfile } from './macos-profile';
import { DEFAULT_SANDBOX, type SandboxSettings, type SandboxState } from './modes';
import { sandboxProbe, sandboxProbeAsync, type SandboxProbe } from './probe';

export type { SandboxSettings, SandboxState } from './modes';
export const DEFAULT_SHELL_ENV: ShellEnvSettings = { include: [], exclude: [] };

export interface CommandSandboxOptions {
  settings?: SandboxSettings;
  shellEnv?: ShellEnvSettings;
  /** The workspace root. */
  workspace: string;
  /** Folders outside the workspace a command may write: granted folders, the agent's output folder. Read per command. */
  writableDirs?: () => readonly string[];
  /** Host folder that is the commands' temp folder for the session (made on first use); absent: an empty one per command. */
  tmpDir?: string;
  /** The user's home: `~/.agentcli/config.json` (stored keys) is hidden from commands. */
  home?: string;
  /** The environment commands start from (default: the runtime's). */
  env?: NodeJS.ProcessEnv;
  probe?: () => SandboxProbe;
  platform?: NodeJS.Platform;
}

export type PreparedCommand =
  | { ok: true; file: string; args: string[]; env: NodeJS.ProcessEnv; isolation: 'bwrap' | 'sandbox-exec' | 'none' }
  | { ok: false; error: string };

function realExisting(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function writableDir(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** `/run` and `/var/run` when they are real folders (not a link to the other). */
function socketDirs(): string[] {
  return ['/run', '/var/run'].filter((dir) => {
    try {
      return fs.lstatSync(dir).isDirectory();
    } catch {
      return false;
    }
  });
}

/** The name of a session temp folder: `<runtime pid>-<session id>`, so a folder a killed runtime left can be told. */
export function sessionTmpName(sessionId: string): string {
  return `${process.pid}-${sessionId}`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the temp folders of runtimes that are gone (killed before they could clean up). */
export function sweepStaleTmpDirs(parent: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) {
      fs.rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
}

/** Name resolution's files under /run (where /etc/resolv.conf often points): kept when the network is on. */
const RESOLVER_PATHS = ['/run/systemd/resolve', '/run/resolvconf', '/run/NetworkManager/resolv.conf', '/run/nscd'];

/** Kernel settings in /proc that root owns: read-only in the sandbox. */
const PROC_SETTINGS = ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus', '/proc/fs'];

/** Never made writable by a grant (nor is `/` itself). */
const SYSTEM_ROOTS = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/boot', '/proc', '/sys', '/dev', '/var/lib'];

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Caches in the read-only home (`~/.cache`: go, pip and most tools; `~/.npm`) move to the sandbox's temp folder, so
 * builds and installs work instead of failing on a read-only file system. A variable the user set, or a cache in a
 * folder made writable (e.g. `permissions.additionalDirectories: ["~/.cache"]`), is left alone.
 */
function redirectCaches(env: NodeJS.ProcessEnv, writable: readonly string[]): void {
  const home = env.HOME;
  if (!home) return;
  const readOnly = (dir: string) => !writable.some((w) => isInside(realExisting(dir) ?? dir, w));
  if (env.XDG_CACHE_HOME === undefined && readOnly(path.join(home, '.cache'))) env.XDG_CACHE_HOME = '/tmp/.cache';
  if (env.npm_config_cache === undefined && env.NPM_CONFIG_CACHE === undefined && readOnly(path.join(home, '.npm'))) {
    env.npm_config_cache = '/tmp/.npm';
  }
}

export class CommandSandbox {
  readonly settings: SandboxSettings;
  private readonly shellEnv: ShellEnvSettings;
  private readonly probe: () => SandboxProbe;
  private readonly platform: NodeJS.Platform;

  constructor(private readonly opts: CommandSandboxOptions) {
    this.settings = opts.settings ?? DEFAULT_SANDBOX;
    this.shellEnv = opts.shellEnv ?? DEFAULT_SHELL_ENV;
    this.probe = opts.probe ?? sandboxProbe;
    this.platform = opts.platform ?? process.platform;
  }

  state(): SandboxState {
    const probe = this.probe();
    return { mode: this.settings.mode, available: probe.available, ...(probe.available ? {} : { reason: probe.reason }), network: this.settings.network };
  }

  /** The startup warning: commands will not run until the sandbox works or the user turns it off. */
  unavailableNotice(): string | undefined {
    if (this.settings.mode === 'off') return undefined;
    const probe = this.probe();
    return probe.available ? undefined : `commands will not run: they run only in a sandbox, and it cannot start: ${probe.reason}`;
  }

  /** `unavailableNotice` after probing without blocking the event loop (the start of an rpc session). */
  async unavailableNoticeAsync(): Promise<string | undefined> {
    if (this.settings.mode === 'off') return undefined;
    if (!this.opts.probe) await sandboxProbeAsync();
    return this.unavailableNotice();
  }

  /**
   * The process to start for `command`. `approved`: a person approved this very call, so it gets the file system and
   * network as the user has them, but (on Linux) still its own process namespace and an environment without secrets.
   */
  prepare(command: string, cwd: string, opts: { approved?: boolean } = {}): PreparedCommand {
    const env: NodeJS.ProcessEnv = { ...commandEnvironment(this.opts.env ?? process.env, this.shellEnv).env, PAGER: 'cat', GIT_PAGER: 'cat' };
    if (this.settings.mode === 'off') return { ok: true, file: 'bash', args: ['-c', command], env, isolation: 'none' };
    const probe = this.probe();
    if (!probe.available) {
      return { ok: false, error: `[not run: commands run only in a sandbox, and it cannot start: ${probe.reason}]` };
    }
    if (probe.kind === 'sandbox-exec') {
      if (opts.approved) return { ok: true, file: 'bash', args: ['-c', command], env, isolation: 'none' };
      return { ok: true, file: probe.binary, args: ['-p', this.seatbelt(), 'bash', '-c', command], env, isolation: 'sandbox-exec' };
    }
    const plan = this.bwrapPlan(command, cwd, opts.approved === true);
    if (plan.mode !== 'approved') redirectCaches(env, plan.mode === 'workspace-write' ? plan.writable : []);
    return { ok: true, file: probe.binary, args: bwrapArgs(plan), env, isolation: 'bwrap' };
  }

  /** Removes the session's temp folder. */
  dispose(): void {
    if (!this.opts.tmpDir) return;
    fs.rmSync(this.opts.tmpDir, { recursive: true, force: true });
    try {
      fs.rmdirSync(path.dirname(this.opts.tmpDir)); // the folder of all sessions' temp folders, when it is empty
    } catch {
      // another session's folder is still there
    }
  }

  private tmpPaths(): string[] {
    return [...new Set(['/tmp', realExisting(os.tmpdir()) ?? os.tmpdir()])];
  }

  private tmpDir(): string | undefined {
    const dir = this.opts.tmpDir;
    if (!dir) return undefined;
    try {
      if (!fs.existsSync(dir)) sweepStaleTmpDirs(path.dirname(dir));
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      return realExisting(dir);
    } catch {
      return undefined;
    }
  }

  private protectedPaths(workspace: string) {
    const git = gitProtection(workspace);
    const projectConfigDir = path.join(workspace, '.agentcli');
    const readOnly = [...git.readOnly];
    // bwrap makes the mount point on the host: only where the parent can take it (else the command could not start).
    const emptyReadOnly = git.missingHooks.filter((p) => !lexists(p) && writableDir(path.dirname(p)));
    // The project's agentcli config can loosen permissions and the sandbox for the next session: never writable here.
    if (lexists(projectConfigDir)) readOnly.push(realExisting(projectConfigDir) ?? projectConfigDir);
    else if (writableDir(workspace)) emptyReadOnly.push(projectConfigDir);
    const userConfig = this.opts.home ? realExisting(path.join(this.opts.home, '.agentcli', 'config.json')) : undefined;
    return { git, readOnly, emptyReadOnly, hidden: userConfig ? [userConfig] : [] };
  }

  /**
   * The workspace, then granted folders and git folders: a grant that is the home folder itself or a system folder
   * stays read-only (a folder granted to read a file there must not let a command plant `~/.bashrc` or edit `/etc`).
   */
  private writable(workspace: string, gitWritable: readonly string[]): string[] {
    const home = this.opts.home ? (realExisting(this.opts.home) ?? this.opts.home) : undefined;
    const granted = [...(this.opts.writableDirs?.() ?? []), ...gitWritable]
      .map(realExisting)
      .filter((d): d is string => d !== undefined && d !== '/' && d !== home && !SYSTEM_ROOTS.some((root) => isInside(d, root)));
    const ws = realExisting(workspace);
    return [...new Set([...(ws && ws !== '/' ? [ws] : []), ...granted])];
  }

  private bwrapPlan(command: string, cwd: string, approved: boolean): BwrapPlan {
    const workspace = realExisting(this.opts.workspace) ?? this.opts.workspace;
    const prot = this.protectedPaths(workspace);
    const mode = approved ? 'approved' : this.settings.mode === 'read-only' ? 'read-only' : 'workspace-write';
    const tmpDir = mode === 'workspace-write' ? this.tmpDir() : undefined;
    return {
      mode,
      network: approved || this.settings.network,
      cwd: realExisting(cwd) ?? cwd,
      command,
      writable: this.writable(workspace, prot.git.writable),
      ...(tmpDir ? { tmpDir } : {}),
      tmpPaths: this.tmpPaths(),
      readOnly: prot.readOnly,
      emptyReadOnly: prot.emptyReadOnly,
      hidden: prot.hidden,
      socketDirs: socketDirs(),
      resolverPaths: RESOLVER_PATHS.filter((p) => fs.existsSync(p)),
      asRoot: process.getuid?.() === 0,
      procSettings: PROC_SETTINGS.filter((p) => fs.existsSync(p)),
    };
  }

  private seatbelt(): string {
    const workspace = realExisting(this.opts.workspace) ?? this.opts.workspace;
    const prot = this.protectedPaths(workspace);
    return seatbeltProfile({
      writable: this.writable(workspace, prot.git.writable),
      tmpPaths: this.tmpPaths(),
      readOnly: [...prot.readOnly, ...prot.emptyReadOnly],
      hidden: prot.hidden,
      network: this.settings.network,
      readOnlyMode: this.settings.mode === 'read-only',
    });
  }
}
