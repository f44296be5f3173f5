/**
 * The `parallel` strategy: the react loop, but the tool calls of one assistant message run concurrently when they are
 * independent (reads, searches, listings, writes to distinct files, commands that need no interactive approval), at
 * most PARALLEL_CAP at a time. Questions to a person (permission, directory access) still come one at a time; results
 * go back to the model in the calls' order; an abort stops them all.
 */
import { parseToolArgs } from '../../tools/registry';
import { resolveToolPath } from '../../workspace/paths';
import type { CallRunner } from '../react-loop';
import { executeToolCall, type ToolCallOutcome, type ToolCallRequest, type ToolExecutionDeps } from '../tool-executor';

/** Most tool calls running at once. */
export const PARALLEL_CAP = 4;

/**
 * What a call touches. `read`: reads `paths` (none: reads nothing the others write); `write`: writes `paths`;
 * `command`: a shell command allowed without asking anyone; `exclusive`: anything else (a command a person must
 * approve, an editor or MCP tool that changes things): it waits for every earlier call and every later call waits for it.
 */
export interface Footprint {
  kind: 'read' | 'write' | 'command' | 'exclusive';
  paths: string[];
  /** It may put a question to a person (a path outside the workspace, a permission prompt): it asks in turn. */
  mayAsk: boolean;
}

export function footprintOf(call: ToolCallRequest, deps: ToolExecutionDeps): Footprint {
  const tool = deps.tools.get(call.name);
  // An unknown tool or bad arguments fail at once without touching anything.
  const none: Footprint = { kind: 'read', paths: [], mayAsk: false };
  if (!tool) return none;
  const parsed = parseToolArgs(tool, call.arguments);
  if (!parsed.ok) return none;
  let target;
  try {
    target = tool.permissionTarget(parsed.args as never, { cwd: deps.cwd });
  } catch {
    return none;
  }
  const resolved = (target.paths ?? []).map((p) => resolveToolPath(deps.cwd, p));
  const paths = resolved.map((r) => r.real);
  const outside = resolved.some((r) => !r.inside && !deps.grants.isGranted(r.real));
  const asks = deps.host.interactive && (outside || deps.policy.evaluate(target, tool.readOnly).decision === 'ask');
  if (tool.readOnly) return { kind: 'read', paths, mayAsk: asks };
  if (target.command !== undefined) return { kind: asks ? 'exclusive' : 'command', paths, mayAsk: asks };
  if (paths.length > 0 && !call.name.startsWith('editor_') && !call.name.startsWith('mcp__')) return { kind: 'write', paths, mayAsk: asks };
  return { kind: 'exclusive', paths, mayAsk: asks };
}

/** Whether `later` must wait for `earlier`. */
export function conflicts(earlier: Footprint, later: Footprint): boolean {
  if (earlier.kind === 'exclusive' || later.kind === 'exclusive') return true;
  const kinds = new Set([earlier.kind, later.kind]);
  // A command may read any file: it waits for earlier writes, and a later write waits for it.
  if (kinds.has('command') && kinds.has('write')) return true;
  if (!kinds.has('write')) return false;
  return earlier.paths.some((p) => later.paths.includes(p));
}

/** A first-come mutex: `run` waits for the callers before it. */
export function createMutex(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const result = tail.then(fn, fn);
    tail = result.catch(() => undefined);
    return result;
  };
}

function createLimiter(cap: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>) => {
    if (running >= cap) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** The parallel call runner (see the file comment); `cap` bounds the calls running at once. */
export function parallelCallRunner(cap = PARALLEL_CAP): CallRunner {
  return async (calls, tools, scope) => {
    // One question to a person at a time: a call that may ask takes its turn for its checks; the calls' work overlaps.
    const asking = withAskingSerialized(tools);
    const limit = createLimiter(cap);
    const prints = calls.map((c) => footprintOf(c, tools));
    const outcomes: Array<ToolCallOutcome | undefined> = new Array(calls.length).fill(undefined);
    let error: unknown;
    const tasks: Array<Promise<void>> = [];
    calls.forEach((call, i) => {
      const before = tasks.filter((_, j) => conflicts(prints[j]!, prints[i]!));
      tasks.push(
        Promise.all(before).then(() =>
          limit(async () => {
            if (scope.signal.aborted || error !== undefined) return;
            try {
              outcomes[i] = await executeToolCall(call, prints[i]!.mayAsk ? asking : tools, scope);
            } catch (e) {
              error ??= e;
            }
          }),
        ),
      );
    });
    await Promise.all(tasks);
    return error !== undefined ? { outcomes, error } : { outcomes };
  };
}

/**
 * The deps with a mutex around the questions. The session's deps object has getters (plan mode, permission mode,
 * sandbox, secrets) read at each call: it stays the prototype, so a mode change during the run still applies.
 */
function withAskingSerialized(tools: ToolExecutionDeps): ToolExecutionDeps {
  const deps = Object.create(tools) as ToolExecutionDeps;
  deps.serializeAsking = createMutex();
  return deps;
}
