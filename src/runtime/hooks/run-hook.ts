/**
 * Runs one hook command: the payload on stdin, stdout and stderr apart, in its own process group stopped at the
 * timeout, with the environment commands get (no secrets) and, when the sandbox is on, inside it (as run_command).
 */
import type { CommandSandbox } from '../sandbox/command-sandbox';
import { runInProcessGroup } from '../tools/process-group';

/** What a hook may print that is kept (the rest is cut): stdout may become the prompt, stderr a reason. */
export const MAX_HOOK_OUTPUT_CHARS = 64 * 1024;

export interface HookRunRequest {
  /** A shell command (`bash -c`). */
  command: string;
  input: string;
  cwd: string;
  timeoutMs: number;
  sandbox: CommandSandbox;
  /** Extra variables (`AGENTCLI_HOOK_EVENT`, `AGENTCLI_SESSION_ID`). */
  env: Record<string, string>;
  signal?: AbortSignal;
  /**
   * The user's own program (a filesystem hook in their home): the file system as the user has it, but still the
   * environment without secrets and (on Linux) its own process namespace. Config hooks run in the sandbox.
   */
  userProgram?: boolean;
}

export interface HookRunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Why the hook did not exit by itself (timeout, abort, cannot start). */
  error?: string;
}

function capped(): { push(chunk: string): void; text(): string } {
  let text = '';
  return {
    push: (chunk) => {
      if (text.length < MAX_HOOK_OUTPUT_CHARS) text += chunk.slice(0, MAX_HOOK_OUTPUT_CHARS - text.length);
    },
    text: () => text,
  };
}

export async function runHookCommand(req: HookRunRequest): Promise<HookRunResult> {
  const started = Date.now();
  const prepared = req.sandbox.prepare(req.command, req.cwd, { approved: req.userProgram === true });
  if (!prepared.ok) {
    return { exitCode: null, stdout: '', stderr: '', durationMs: 0, error: prepared.error.replace(/^\[not run: (.*)\]$/s, 'not run: $1') };
  }
  const stdout = capped();
  const stderr = capped();
  const result = await runInProcessGroup({
    file: prepared.file,
    args: prepared.args,
    env: { ...prepared.env, ...req.env },
    cwd: req.cwd,
    timeoutMs: req.timeoutMs,
    signal: req.signal ?? new AbortController().signal,
    input: req.input,
    onOutput: stdout.push,
    onStderr: stderr.push,
  });
  const durationMs = Date.now() - started;
  const base = { stdout: stdout.text(), stderr: stderr.text(), durationMs };
  if (result.spawnError) return { ...base, exitCode: null, error: `could not start: ${result.spawnError}` };
  if (result.stoppedBy === 'timeout') return { ...base, exitCode: null, error: `timed out after ${req.timeoutMs} ms and was stopped (raise its timeoutMs, or make it faster)` };
  if (result.stoppedBy === 'abort') return { ...base, exitCode: null, error: 'stopped: the run was aborted' };
  if (result.exitCode === null) return { ...base, exitCode: null, error: `killed by ${result.signal ?? 'a signal'}` };
  return { ...base, exitCode: result.exitCode };
}

/** A path as one shell word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
