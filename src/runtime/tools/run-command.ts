import { promises as fs } from 'node:fs';
import * as z from '../../protocol/zod';
import { CommandSandbox } from '../sandbox/command-sandbox';
import { resolveToolPath } from '../workspace/paths';
import { OutputCapture } from './output-capture';
import { runInProcessGroup, type GroupRunResult } from './process-group';
import type { ToolDefinition } from './types';
import { ToolInputError } from './types';

export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
export const MAX_COMMAND_TIMEOUT_MS = 600_000;

// Built on first use (z.lazy): the CLI carries this tool's JSON Schema ready-made (see esbuild.mjs), so a start
// builds no tool schema until a call comes.
const schema = z.lazy(() =>
  z.object({
    command: z.string().min(1).describe('Shell command, run with bash -c'),
    cwd: z.string().optional().describe('Working folder inside the workspace (default: workspace root)'),
    timeout_ms: z.number().int().min(1).max(MAX_COMMAND_TIMEOUT_MS).optional().describe('Default 120000'),
  }),
);

export interface RunCommandOptions {
  /** Default timeout when the call gives none. */
  commandTimeoutMs?: number;
}

function oneLine(command: string): string {
  const flat = command.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

function statusLine(result: GroupRunResult, timeoutMs: number): string {
  if (result.spawnError) return `[command could not start: ${result.spawnError}]`;
  if (result.stoppedBy === 'timeout') {
    return `[timed out after ${timeoutMs} ms; the command and its child processes were killed]`;
  }
  if (result.stoppedBy === 'abort') return '[aborted by the user; the command and its child processes were killed]';
  const code = result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.exitCode}`;
  const detached = result.detachedOutput ? ' (background processes still running; their later output is not shown)' : '';
  return `[${code}${detached}]`;
}

export function createRunCommandTool(options: RunCommandOptions = {}): ToolDefinition<typeof schema> {
  const defaultTimeout = Math.min(options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, MAX_COMMAND_TIMEOUT_MS);
  return {
    name: 'run_command',
    description:
      'Run a shell command (bash) in the workspace; output and exit code are returned. ' +
      'Commands see files on disk, not your proposed edits still awaiting review. ' +
      'Commands usually run in a sandbox: the workspace is writable, the rest of the file system read-only, .git hooks ' +
      'and config read-only, the network off unless the user allowed it, and secrets are not in the environment.',
    inputSchema: schema,
    readOnly: false,
    permissionTarget(args) {
      return { ruleTool: 'Bash', command: args.command, description: `Run: ${oneLine(args.command)}` };
    },
    async run(args, ctx) {
      const cwd = resolveToolPath(ctx.files.root, args.cwd ? resolveToolPath(ctx.cwd, args.cwd).absolute : ctx.cwd);
      if (!cwd.inside) throw new ToolInputError(`cwd ${args.cwd ?? ctx.cwd} is outside the workspace; use a folder inside it`);
      const stat = await fs.stat(cwd.real).catch(() => null);
      if (!stat?.isDirectory()) throw new ToolInputError(`cwd ${cwd.relative} is not an existing folder`);
      if (ctx.signal.aborted) return { output: '[not run: the turn was aborted]', isError: true };
      const timeoutMs = args.timeout_ms ?? defaultTimeout;
      const capture = await OutputCapture.create(ctx.outputDir, ctx.toolCallId);
      const sandbox = ctx.sandbox ?? new CommandSandbox({ workspace: ctx.files.root, writableDirs: () => [ctx.outputDir] });
      const prepared = sandbox.prepare(args.command, cwd.real, { approved: ctx.approvedByPerson === true });
      if (!prepared.ok) {
        await capture.finish();
        return { output: prepared.error, isError: true };
      }
      // The saved log is masked too: it stays on disk after the session.
      const logMask = ctx.secrets?.stream();
      const result = await runInProcessGroup({
        file: prepared.file,
        args: prepared.args,
        env: prepared.env,
        cwd: cwd.real,
        timeoutMs,
        signal: ctx.signal,
        onOutput(chunk) {
          capture.append(logMask ? logMask.push(chunk) : chunk);
          ctx.onOutput(chunk);
        },
      });
      if (logMask) capture.append(logMask.flush());
      const output = await capture.finish();
      const status = statusLine(result, timeoutMs);
      const failed = result.spawnError !== undefined || result.stoppedBy !== null || result.exitCode !== 0;
      const body = output === '' ? '(no output)' : output.endsWith('\n') ? output.slice(0, -1) : output;
      return { output: `${body}\n${status}`, isError: failed };
    },
  };
}
