/**
 * What the demo walkthrough model reads from one chat-completions request (test double only): the text that drives
 * this turn, the tool results the runtime sent back since, the tools it offers and whether the demo already
 * introduced itself in this conversation.
 */

/** One tool call the demo made in this turn and what the runtime answered (the tool message's content). */
export interface ToolOutcome {
  name: string;
  args: Record<string, unknown>;
  output: string;
}

export interface DemoTurn {
  /** The last user message without the context attached before it (a prompt, or a plan step the runtime sends as one). */
  prompt: string;
  /** A system message after the last user message: an instruction for this request only (e.g. the plan summary). */
  instruction: string;
  /** Tool calls answered since the last user message, oldest first. */
  results: ToolOutcome[];
  /** Names of the tools the request offers (plan mode offers `submit_plan` and no writing tool). */
  offeredTools: string[];
  /** An earlier message of this conversation (an answer, or the summary that replaced it) said that this is the scripted demo. */
  introduced: boolean;
  /** The runtime asks for a summary of the conversation so far (context compaction): no tools, a summary only. */
  compaction: boolean;
}

/** The sentence that opens the demo's first answer; finding it in the history means the demo introduced itself. */
export const INTRO_MARK = 'scripted demo model (a test double)';

interface WireMessage {
  role?: unknown;
  content?: unknown;
  tool_call_id?: unknown;
  tool_calls?: unknown;
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('');
  }
  return '';
}

function parseArgs(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The calls an assistant message made, by id. */
function callsOf(message: WireMessage): Map<string, { name: string; args: Record<string, unknown> }> {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  if (!Array.isArray(message.tool_calls)) return calls;
  for (const call of message.tool_calls as { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
    if (typeof call.id === 'string' && typeof call.function?.name === 'string') {
      calls.set(call.id, { name: call.function.name, args: parseArgs(call.function.arguments) });
    }
  }
  return calls;
}

/**
 * The user's own words of a user message: the runtime puts attached context first (`<file path="…">…</file>` or
 * `<selection path="…"/>` blocks, then a blank line), and the editor attaches the active file on its own.
 */
export function ownWords(message: string): string {
  let rest = message;
  for (;;) {
    const block = /^<(\w+) path="[^"]*"(?:\/>|>[\s\S]*?\n<\/\1>)\n/.exec(rest);
    if (!block) return rest.replace(/^\n/, '');
    rest = rest.slice(block[0].length);
  }
}

/** Reads a chat-completions request body (any shape: a body that is not a request reads as an empty turn). */
export function readTurn(body: unknown): DemoTurn {
  const request = typeof body === 'object' && body !== null ? (body as { messages?: unknown; tools?: unknown }) : {};
  const messages: WireMessage[] = Array.isArray(request.messages) ? (request.messages as WireMessage[]) : [];
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const after = messages.slice(lastUser + 1);
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const results: ToolOutcome[] = [];
  let instruction = '';
  for (const m of after) {
    if (m.role === 'assistant') for (const [id, call] of callsOf(m)) calls.set(id, call);
    else if (m.role === 'tool' && typeof m.tool_call_id === 'string') {
      const call = calls.get(m.tool_call_id);
      if (call) results.push({ ...call, output: text(m.content) });
    } else if (m.role === 'system') instruction = text(m.content);
  }
  const tools = Array.isArray(request.tools) ? (request.tools as { function?: { name?: unknown } }[]) : [];
  return {
    prompt: lastUser >= 0 ? ownWords(text(messages[lastUser]!.content)) : '',
    instruction,
    results,
    offeredTools: tools.map((t) => t.function?.name).filter((n): n is string => typeof n === 'string'),
    introduced: messages.some((m, i) => m.role !== 'system' && i !== lastUser && text(m.content).includes(INTRO_MARK)),
    compaction: messages[0]?.role === 'system' && text(messages[0].content).startsWith('You compact a coding session'),
  };
}

/** The result of the latest call of `name` in this turn, if it was made. */
export function resultOf(turn: DemoTurn, name: string, matches: (args: Record<string, unknown>) => boolean = () => true): ToolOutcome | undefined {
  return [...turn.results].reverse().find((r) => r.name === name && matches(r.args));
}

/**
 * Whether a tool result says that the call was refused: the user denied it (with or without an alternative), denied
 * the folder, or a rule denied it. The runtime sends these as the tool message's text.
 */
export function wasRefused(outcome: ToolOutcome): boolean {
  return /^(the user denied |access to .* was denied|permission denied|not run:)/i.test(outcome.output.trim());
}

/** What the user asked to do instead when denying (the "Suggest alternative" answer), if anything. */
export function alternativeOf(outcome: ToolOutcome): string | undefined {
  return /^the user denied .* and asks you to do this instead: ([\s\S]+)$/i.exec(outcome.output.trim())?.[1];
}
