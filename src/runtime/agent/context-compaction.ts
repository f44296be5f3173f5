/**
 * Context compaction: when the next model request would pass a share of the model's context window, the conversation
 * before the current prompt is summarised by the model and replaced by the summary (a user message with it and the
 * assistant's acknowledgement, so roles still alternate). At most once per prompt: when the request still does not fit,
 * the run ends with `context_too_long` and a remedy. On by default; off with `compaction.enabled: false` or `setContextCompact`.
 */
import type { HistoryMessage } from '../../protocol/records';
import { ProviderError, type ChatToolSpec, type ModelProvider } from '../providers/types';

/** The rough estimate `getContextUsage` uses too: four characters a token. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(messages: readonly HistoryMessage[], extraChars = 0): number {
  let chars = extraChars;
  for (const m of messages) {
    chars += m.content.length;
    for (const c of m.toolCalls ?? []) chars += c.name.length + c.arguments.length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export const SUMMARY_PREFIX = 'Summary of the earlier conversation (older messages were compacted to fit the context window):';
const SUMMARY_ACK = 'Understood. I will continue from this summary.';
/** Most characters of one message the summary request carries (a huge tool result is cut in the middle). */
const MAX_MESSAGE_CHARS = 4000;

const SUMMARY_INSTRUCTIONS =
  'You compact a coding session so it can continue with less context. Summarise the conversation below: the goals, ' +
  'decisions, files read or changed (with paths), commands run and their outcomes, errors, and what is still open. ' +
  'Keep names, paths and numbers exact. Answer with the summary only.';

function clip(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const half = MAX_MESSAGE_CHARS / 2;
  return `${text.slice(0, half)}\n[… ${text.length - MAX_MESSAGE_CHARS} characters left out …]\n${text.slice(-half)}`;
}

function transcript(messages: readonly HistoryMessage[]): string {
  return messages
    .map((m) => {
      const calls = (m.toolCalls ?? []).map((c) => `\n[tool call ${c.name} ${clip(c.arguments)}]`).join('');
      const who = m.role === 'tool' ? `tool result (${m.toolName ?? 'tool'})` : m.role;
      return `${who}: ${clip(m.content)}${calls}`;
    })
    .join('\n\n');
}

export interface CompactionRequest {
  history: HistoryMessage[];
  provider: ModelProvider;
  /** Characters the request sends besides the history (system prompt, tool schemas). */
  fixedChars: number;
  signal: AbortSignal;
}

export interface CompactionResult {
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  /** How many leading messages the summary pair replaced. */
  removed: number;
  summary: string;
}

/** Where the current prompt begins: the last user message that is not a compaction summary. */
function currentPromptStart(history: readonly HistoryMessage[]): number {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role === 'user' && !m.content.startsWith(SUMMARY_PREFIX)) return i;
  }
  return 0;
}

export class ContextCompactor {
  /** The prompt number of the last compaction: never twice within one prompt. */
  private compactedInPrompt = -1;
  private prompt = 0;
  /** Set by `setContextCompact`: new settings no longer change `enabled`. */
  private chosen = false;

  constructor(
    public enabled: boolean,
    public threshold: number,
  ) {}

  /** New settings (`configure`): the threshold, and `enabled` unless `setContextCompact` chose it. */
  configure(settings: { enabled: boolean; threshold: number }): void {
    this.threshold = settings.threshold;
    if (!this.chosen) this.enabled = settings.enabled;
  }

  /** `setContextCompact`. */
  set(enabled: boolean): boolean {
    this.enabled = enabled;
    this.chosen = true;
    return enabled;
  }

  /** A new prompt started: compaction may run again. */
  newPrompt(): void {
    this.prompt++;
  }

  /**
   * Before a model request: compacts when enabled and over the threshold (once per prompt); throws a
   * `context_too_long` ProviderError when the request still would not fit the window.
   */
  async beforeRequest(req: CompactionRequest, onCompacted: (r: CompactionResult) => void): Promise<void> {
    const window = req.provider.contextWindow;
    if (!this.enabled || !window) return;
    const tokens = estimateTokens(req.history, req.fixedChars);
    if (tokens <= window * this.threshold) return;
    if (this.compactedInPrompt !== this.prompt) {
      const result = await this.compact(req);
      if (result) {
        onCompacted(result);
        if (result.tokensAfter <= window) return;
      }
    }
    if (estimateTokens(req.history, req.fixedChars) > window) {
      throw new ProviderError(
        'context_too_long',
        `the conversation (about ${estimateTokens(req.history, req.fixedChars)} tokens) does not fit the model's context window of ${window} tokens, even after compaction`,
        'start a new conversation (reset, /reset), attach less context, or pick a model with a larger context window (its contextSize/numCtx setting for a local model)',
      );
    }
  }

  /**
   * Summarises everything before the current prompt (`keepCurrentPrompt`, during a run) or the whole conversation
   * (`/compact` between runs); undefined when there is nothing (new) to summarise.
   */
  async compact(req: CompactionRequest, keepCurrentPrompt = true): Promise<CompactionResult | undefined> {
    const { history } = req;
    const keepFrom = keepCurrentPrompt ? currentPromptStart(history) : history.length;
    const onlySummary = keepFrom <= 2 && history[0]?.content.startsWith(SUMMARY_PREFIX) === true;
    if (keepFrom < 1 || onlySummary) return undefined;
    const tokensBefore = estimateTokens(history, req.fixedChars);
    const older = history.slice(0, keepFrom);
    let summary = '';
    const stream = req.provider.streamChat({
      messages: [
        { role: 'system', content: SUMMARY_INSTRUCTIONS },
        { role: 'user', content: transcript(older) },
      ],
      tools: [] as ChatToolSpec[],
      signal: req.signal,
    });
    for await (const chunk of stream) if (chunk.type === 'text') summary += chunk.delta;
    summary = summary.trim();
    if (!summary) throw new ProviderError('provider_error', 'the model gave an empty summary when compacting the conversation', 'try again, or reset the conversation');
    const messagesBefore = history.length;
    history.splice(0, keepFrom, { role: 'user', content: `${SUMMARY_PREFIX}\n\n${summary}` }, { role: 'assistant', content: SUMMARY_ACK });
    this.compactedInPrompt = this.prompt;
    return {
      messagesBefore,
      messagesAfter: history.length,
      tokensBefore,
      tokensAfter: estimateTokens(history, req.fixedChars),
      removed: keepFrom,
      summary: history[0]!.content,
    };
  }
}
