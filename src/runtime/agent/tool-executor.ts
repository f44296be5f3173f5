// fs.promises, not node:fs/promises: that module (and the readline code it loads) is read on first use, not at start
import fs from 'node:fs';
import path from 'node:path';
import { PERMISSION_CHOICES_WITHOUT_RULE, PermissionChoice, type PermissionMode } from '../../protocol/records';
import type { DirectoryGrants } from '../permissions/directory-grants';
import type { PermissionPolicy } from '../permissions/policy';
import { canonicalTool } from '../permissions/rule-matching';
import { saveAllowRules } from '../permissions/save-rules';
import { parseToolArgs } from '../tools/registry';
import { ToolInputError, type PermissionTarget, type ToolDefinition } from '../tools/types';
import type { WorkspaceFiles } from '../workspace/types';
import { resolveToolPath } from '../workspace/paths';
import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { SecretMasker } from '../secrets/masker';
import type { DeniedAction, DirectoryAnswer, EventDraft, PermissionAnswer, RunHost } from './host';
import type { PermissionVerdict } from '../permissions/policy';
import { newId } from './ids';
import { RequestCancelledError, type PendingRequests } from './pending-requests';

export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
}

export interface ToolCallOutcome {
  tool: string;
  args: unknown;
  success: boolean;
  /** What the model is told. */
  output: string;
}

export interface ToolExecutionDeps {
  cwd: string;
  files: WorkspaceFiles;
  tools: ReadonlyMap<string, ToolDefinition>;
  policy: PermissionPolicy;
  grants: DirectoryGrants;
  pending: PendingRequests;
  host: RunHost;
  emit(draft: EventDraft): void;
  outputDir: string;
  projectConfigFile: string;
  /** Writes become proposals awaiting review, so they need no separate approval. */
  batchMode: boolean;
  planMode: boolean;
  permissionMode: PermissionMode;
  /** How commands run; absent: the default sandbox for the workspace. */
  sandbox?: CommandSandbox;
  /** Secret values masked in every tool output (result, streamed updates, saved logs) before anyone sees it. */
  secrets?: SecretMasker;
  /** Wraps the directory-access and permission checks of a call (the `parallel` loop asks one question at a time). */
  serializeAsking?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The before_tool hooks (README "Hooks"): answers why the call is blocked, or undefined to let it run. */
  beforeTool?: (call: { runId: string; turnId: string; toolCallId: string; toolName: string; args: unknown }, signal: AbortSignal) => Promise<string | undefined>;
}

export interface RunScope {
  runId: string;
  turnId: string;
  signal: AbortSignal;
}

class Refused extends Error {}

/** Runs one tool call: argument validation, plan mode, directory access, permission, execution, events. */
export async function executeToolCall(call: ToolCallRequest, deps: ToolExecutionDeps, scope: RunScope): Promise<ToolCallOutcome> {
  const ids = { runId: scope.runId, turnId: scope.turnId, toolCallId: call.id, toolName: call.name };
  const tool = deps.tools.get(call.name);
  let args: unknown = safeJson(call.arguments);
  const started = Date.now();
  const finish = (success: boolean, rawOutput: string): ToolCallOutcome => {
    // The one place every tool's output passes: known secrets never reach the model, the events or a log.
    const output = deps.secrets ? deps.secrets.mask(rawOutput) : rawOutput;
    deps.emit({ type: 'tool_end', ...ids, durationMs: Date.now() - started, success, ...(success ? { output } : { error: output }) });
    // A failed tool is also an `error` event (spec 001 §6/§7: "tool failure" → `error` with a code); a user abort is not.
    if (!success && !scope.signal.aborted) {
      deps.emit({ type: 'error', runId: scope.runId, toolCallId: call.id, code: 'tool_error', error: failureSummary(call.name, output) });
    }
    return { tool: call.name, args, success, output };
  };
  let startedEvent = false;
  const start = () => {
    if (startedEvent) return;
    startedEvent = true;
    deps.emit({ type: 'tool_start', ...ids, args });
  };
  try {
    if (!tool) {
      start();
      throw new Refused(`unknown tool "${call.name}"; available tools: ${[...deps.tools.keys()].join(', ')}`);
    }
    const parsed = parseToolArgs(tool, call.arguments);
    if (!parsed.ok) {
      start();
      throw new Refused(parsed.error);
    }
    args = parsed.args;
    if (deps.planMode && !tool.readOnly) {
      start();
      throw new Refused(`plan mode is on: only read-only tools may run; "${tool.name}" changes files or runs commands. Describe the plan instead.`);
    }
    const target = tool.permissionTarget(parsed.args as never, { cwd: deps.cwd });
    const ask = async () => {
      const grantedForCall = await ensureDirectoryAccess(target, deps, scope, call.id, tool.name);
      return ensurePermission(tool, target, deps, scope, call.id, grantedForCall);
    };
    const approvedByPerson = await (deps.serializeAsking ? deps.serializeAsking(ask) : ask());
    const blockedByHook = await deps.beforeTool?.({ runId: scope.runId, turnId: scope.turnId, toolCallId: call.id, toolName: tool.name, args: parsed.args }, scope.signal);
    if (blockedByHook !== undefined) {
      start();
      throw new Refused(blockedByHook);
    }
    start();
    const update = (output: string) => {
      if (output !== '') deps.emit({ type: 'tool_update', ...ids, output });
    };
    // A secret split across two chunks is held back until the next chunk shows whether it is one.
    const streamMask = deps.secrets?.stream();
    let result;
    try {
      result = await tool.run(parsed.args as never, {
        cwd: deps.cwd,
        files: deps.files,
        signal: scope.signal,
        toolCallId: call.id,
        outputDir: deps.outputDir,
        onOutput: (chunk) => update(streamMask ? streamMask.push(chunk) : chunk),
        approvedByPerson,
        ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
        ...(deps.secrets ? { secrets: deps.secrets } : {}),
      });
    } finally {
      if (streamMask) update(streamMask.flush());
    }
    return finish(!result.isError, result.output);
  } catch (e) {
    start();
    if (e instanceof RequestCancelledError && e.reason === 'aborted') {
      finish(false, 'aborted by the user');
      throw e;
    }
    if (scope.signal.aborted) {
      finish(false, 'aborted by the user');
      throw new RequestCancelledError('aborted');
    }
    if (e instanceof Refused || e instanceof ToolInputError) return finish(false, e.message);
    return finish(false, `${call.name} failed: ${(e as Error).message}`);
  }
}

/** One line for a tool failure: its first line, and the last one when there are more (a command's exit status). */
function failureSummary(toolName: string, output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const first = lines[0] ?? 'no details';
  const last = lines.at(-1);
  const body = last !== undefined && lines.length > 1 ? `${first} … ${last}` : first;
  const text = body.startsWith(`${toolName} failed`) ? body : `${toolName} failed: ${body}`;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** Asks for folders outside the workspace that are not granted yet; returns the ones allowed for this call only. */
async function ensureDirectoryAccess(
  target: PermissionTarget,
  deps: ToolExecutionDeps,
  scope: RunScope,
  toolCallId: string,
  toolName: string,
): Promise<string[]> {
  const grantedForCall: string[] = [];
  for (const p of target.paths ?? []) {
    const resolved = resolveToolPath(deps.cwd, p);
    if (resolved.inside || deps.grants.isGranted(resolved.real)) continue;
    const dir = (await isDirectory(resolved.real)) ? resolved.real : path.dirname(resolved.real);
    const reason = `${target.description} needs ${target.ruleTool === 'Read' ? 'read' : 'write'} access outside the workspace`;
    let answer: DirectoryAnswer;
    if (!deps.host.interactive) {
      // One rule in every mode, unrestricted included: outside the workspace means a configured or granted folder.
      deps.host.denied?.({ tool: toolName, target: dir, reason: `${dir} is outside the workspace`, allowedBy: 'directory' });
      deps.host.notice?.(
        `directory access to ${dir} denied: nobody to ask in a non-interactive run, and --yolo does not grant folders outside the workspace; ` +
          `add it to permissions.additionalDirectories in .agentcli/config.json`,
      );
      answer = { allowed: false, scope: 'once', reason: 'nobody can approve it in a non-interactive run' };
    } else {
      const requestId = newId('dir');
      deps.emit({ type: 'directory_access_request', runId: scope.runId, turnId: scope.turnId, requestId, toolCallId, path: dir, reason });
      try {
        answer = await deps.pending.wait<DirectoryAnswer>(requestId, 'directory', { path: dir, reason }, scope.signal);
      } catch (e) {
        deps.emit({ type: 'directory_access_resolved', runId: scope.runId, turnId: scope.turnId, requestId, outcome: 'cancelled' });
        throw e;
      }
      deps.emit({
        type: 'directory_access_resolved',
        runId: scope.runId,
        turnId: scope.turnId,
        requestId,
        outcome: answer.allowed ? 'allowed' : 'denied',
      });
    }
    if (!answer.allowed) throw new Refused(`access to ${dir} was denied ${answer.reason ? `(${answer.reason})` : 'by the user'}; stay inside the workspace ${deps.cwd}`);
    if (answer.scope === 'session') deps.grants.grantSession(dir);
    else grantedForCall.push(dir);
  }
  return grantedForCall;
}

/** Asks when the policy says so; returns whether a person approved this very call. Throws when refused. */
async function ensurePermission(
  tool: ToolDefinition,
  target: PermissionTarget,
  deps: ToolExecutionDeps,
  scope: RunScope,
  toolCallId: string,
  grantedForCall: readonly string[],
): Promise<boolean> {
  const verdict = deps.policy.evaluate(target, tool.readOnly, { grantedForCall });
  if (verdict.decision === 'allow') return false;
  if (verdict.decision === 'deny') {
    deps.host.denied?.({ tool: tool.name, target: targetText(target, deps.cwd), reason: verdict.reason, allowedBy: 'config' });
    throw new Refused(`permission denied: ${verdict.reason}`);
  }
  // Proposals in a change batch are reviewed before anything is written, so the mode's default needs no prompt of its
  // own; an ask rule or a protected path still asks.
  if (deps.batchMode && canonicalTool(target.ruleTool) === 'Write' && verdict.cause === 'mode-default') return false;
  let answer: PermissionAnswer;
  if (!deps.host.interactive) {
    const denied = deniedAction(tool.name, target, verdict, deps.cwd);
    deps.host.denied?.(denied);
    deps.host.notice?.(`permission denied: ${target.description} (${verdict.reason}). Nobody can approve in a non-interactive run: ${howToAllow(verdict, denied, target)}`);
    throw new Refused(`permission denied: ${target.description} needs approval and nobody can approve in this non-interactive run`);
  }
  const requestId = newId('perm');
  const base = { runId: scope.runId, turnId: scope.turnId, requestId };
  const choices = verdict.suggestedRules.length > 0 ? [...PermissionChoice.options] : [...PERMISSION_CHOICES_WITHOUT_RULE];
  deps.emit({
    type: 'permission_request',
    ...base,
    toolCallId,
    tool: tool.name,
    description: target.description,
    ...(target.command !== undefined ? { command: target.command } : {}),
    ...(target.paths ? { paths: target.paths.map((p) => resolveToolPath(deps.cwd, p).relative) } : {}),
    suggestedRules: verdict.suggestedRules,
    choices,
  });
  try {
    answer = await deps.pending.wait<PermissionAnswer>(
      requestId,
      'permission',
      { tool: tool.name, description: target.description, choices },
      scope.signal,
    );
  } catch (e) {
    deps.emit({ type: 'permission_resolved', ...base, outcome: 'cancelled' });
    throw e;
  }
  deps.emit({ type: 'permission_resolved', ...base, outcome: answer.allowed ? 'allowed' : 'denied', scope: answer.scope });
  if (!answer.allowed) {
    throw new Refused(
      answer.alternative
        ? `the user denied ${target.description} and asks you to do this instead: ${answer.alternative}`
        : `the user denied ${target.description}; do not retry it, ask the user or take another approach`,
    );
  }
  if (answer.scope === 'session' || answer.scope === 'always') deps.policy.addSessionRules(verdict.suggestedRules);
  if (answer.scope === 'always' && verdict.suggestedRules.length > 0) {
    await saveAllowRules(deps.projectConfigFile, verdict.suggestedRules);
    const rules = verdict.suggestedRules;
    deps.host.notice?.(`saved rule${rules.length > 1 ? 's' : ''} ${rules.join(', ')} to ${path.relative(deps.cwd, deps.projectConfigFile) || deps.projectConfigFile}`);
  }
  // A person answered for this very call (whatever scope the answer also has for later calls).
  return true;
}

/** What a refused call was about, for the end-of-run summary: the command, the path(s), or the description. */
function targetText(target: PermissionTarget, cwd: string): string {
  if (target.command !== undefined) return target.command;
  if (target.paths && target.paths.length > 0) return target.paths.map((p) => resolveToolPath(cwd, p).relative).join(', ');
  return target.description;
}

/** Checks that neither --yolo nor an allow rule can lift: only someone answering the question can. */
const INTERACTIVE_ONLY: ReadonlySet<PermissionVerdict['cause']> = new Set(['protected', 'risky-command', 'ask-rule']);

function deniedAction(tool: string, target: PermissionTarget, verdict: PermissionVerdict, cwd: string): DeniedAction {
  const interactiveOnly = INTERACTIVE_ONLY.has(verdict.cause);
  const rule = verdict.suggestedRules[0] ?? (target.paths ? undefined : target.ruleTool);
  return {
    tool,
    target: targetText(target, cwd),
    reason: verdict.reason,
    allowedBy: interactiveOnly ? 'interactive' : 'flag-or-rule',
    ...(!interactiveOnly && rule ? { rule } : {}),
  };
}

function howToAllow(verdict: PermissionVerdict, denied: DeniedAction, target: PermissionTarget): string {
  const approve = 'only an interactive approval can allow it (run agentcli in a terminal, or use the editor)';
  if (verdict.cause === 'protected') return `--yolo and allow rules never allow a protected path; ${approve}`;
  if (verdict.cause === 'risky-command') {
    const exact = target.command !== undefined && !target.command.includes('\n') ? `, or an allow rule naming this exact command: Bash(${target.command.trim()})` : '';
    return `--yolo and broad allow rules never allow a risky command; ${approve}${exact}`;
  }
  if (verdict.cause === 'ask-rule') return `an ask rule asks even with --yolo; ${approve}, or remove the rule from permissions.ask`;
  return `pass --yolo, or add an allow rule such as ${denied.rule ?? 'Write(<path>)'} to permissions.allow in .agentcli/config.json`;
}

async function isDirectory(p: string): Promise<boolean> {
  return fs.promises.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
