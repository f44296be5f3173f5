/**
 * Can this machine run commands in a sandbox? Checked once per process, lazily (the first command, or the start of an
 * interactive or rpc session; never for `--version` or `--help`), by running a trivial command with the same
 * isolation a real one gets.
 *
 * `AGENTCLI_BWRAP` names the bubblewrap binary to use instead of `bwrap` on PATH (for a bwrap installed elsewhere; the
 * tests point it at a missing file to simulate a machine without it).
 */
import fs from 'node:fs';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded when a command first runs, not at CLI start */
const childProcess = () => require('node:child_process') as typeof import('node:child_process');
/* eslint-enable @typescript-eslint/no-require-imports */

export type SandboxKind = 'bwrap' | 'sandbox-exec';

export type SandboxProbe =
  | { available: true; kind: SandboxKind; binary: string }
  | { available: false; reason: string };

export const BWRAP_ENV = 'AGENTCLI_BWRAP';
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
const PROBE_TIMEOUT_MS = 10_000;

const OFF_HINT = 'or, to run commands without a sandbox, set it off yourself: agentcli config set sandbox.mode off';

/** The isolation every sandboxed command gets; the probe asks for exactly this. */
export const BWRAP_PROBE_ARGS = [
  '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc',
  '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session', '--', 'true',
];

/** Why bwrap failed, with the fix, from its exit status and message. */
export function explainBwrapFailure(binary: string, error: { code?: string; stderr?: string; status?: number | null }): string {
  if (error.code === 'ENOENT') {
    return `bubblewrap (${binary}) is not installed, so commands cannot run in a sandbox; install it (apt-get install bubblewrap, dnf install bubblewrap) ${OFF_HINT}`;
  }
  const said = (error.stderr ?? '').trim().split('\n').slice(-1)[0] ?? '';
  const detail = said ? ` (${binary} said: ${said})` : error.status !== undefined ? ` (${binary} exited with ${error.status})` : '';
  return (
    `bubblewrap cannot create the sandbox's namespaces here${detail}. Allow unprivileged user namespaces: ` +
    'sysctl -w kernel.unprivileged_userns_clone=1, and on Ubuntu 23.10 or later sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 ' +
    '(or an AppArmor profile that lets bwrap use them); in a container, run it with user namespaces allowed (e.g. without a seccomp profile that blocks them); ' +
    OFF_HINT
  );
}

function probeBwrap(env: NodeJS.ProcessEnv): SandboxProbe {
  const binary = env[BWRAP_ENV]?.trim() || 'bwrap';
  const result = childProcess().spawnSync(binary, BWRAP_PROBE_ARGS, {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    env: { PATH: env.PATH ?? '/usr/bin:/bin' },
  });
  if (result.error) {
    return { available: false, reason: explainBwrapFailure(binary, { code: (result.error as NodeJS.ErrnoException).code, stderr: result.error.message }) };
  }
  if (result.status !== 0) return { available: false, reason: explainBwrapFailure(binary, { stderr: result.stderr, status: result.status }) };
  return { available: true, kind: 'bwrap', binary };
}

/** Probe this machine (uncached; see `sandboxProbe`). */
export function probeSandbox(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): SandboxProbe {
  if (platform === 'linux') return probeBwrap(env);
  if (platform === 'darwin') {
    return fs.existsSync(SANDBOX_EXEC)
      ? { available: true, kind: 'sandbox-exec', binary: SANDBOX_EXEC }
      : { available: false, reason: `${SANDBOX_EXEC} is missing, so commands cannot run in a sandbox; ${OFF_HINT}` };
  }
  return { available: false, reason: `agentcli has no command sandbox on ${platform} (it uses bubblewrap on Linux and sandbox-exec on macOS); ${OFF_HINT}` };
}

/** `probeSandbox` without blocking the event loop (the probe takes some 10 to 40 ms), for the start of an rpc session. */
export function probeSandboxAsync(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<SandboxProbe> {
  if (platform !== 'linux') return Promise.resolve(probeSandbox(env, platform));
  const binary = env[BWRAP_ENV]?.trim() || 'bwrap';
  return new Promise((resolve) => {
    const child = childProcess().execFile(binary, BWRAP_PROBE_ARGS, { timeout: PROBE_TIMEOUT_MS, env: { PATH: env.PATH ?? '/usr/bin:/bin' } }, (error, _stdout, stderr) => {
      if (!error) return resolve({ available: true, kind: 'bwrap', binary });
      const code = (error as NodeJS.ErrnoException).code;
      resolve({
        available: false,
        reason: explainBwrapFailure(binary, typeof code === 'string' ? { code, stderr: error.message } : { stderr: String(stderr), status: child.exitCode }),
      });
    });
  });
}

let cached: SandboxProbe | undefined;
let pending: Promise<SandboxProbe> | undefined;

/** The probe's answer, computed on first use and kept for the life of the process. */
export function sandboxProbe(): SandboxProbe {
  cached ??= probeSandbox();
  return cached;
}

/** The same answer, probed without blocking; `sandboxProbe()` then answers from the cache. */
export function sandboxProbeAsync(): Promise<SandboxProbe> {
  if (cached) return Promise.resolve(cached);
  pending ??= probeSandboxAsync().then((probe) => (cached ??= probe));
  return pending;
}

