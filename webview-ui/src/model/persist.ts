/**
 * The compact snapshot kept with `vscode.setState()` so a hidden-and-shown webview restores without waiting for the
 * extension. Bounded: the newest items that fit `maxChars` of JSON, tool output cut short. Pure: no DOM, no zod (it
 * is read back by contract.ts).
 */
import type { ContextChip, TranscriptItem } from '../../../src/shared/chat/transcriptItems';

export const PERSIST_VERSION = 1;
export const DEFAULT_MAX_SNAPSHOT_CHARS = 400_000;
const MAX_PERSISTED_TOOL_OUTPUT = 2_000;

/** What `setState()` keeps (validated on reading by contract.ts's `readSnapshot`). */
export interface PersistedPanel {
  v: typeof PERSIST_VERSION;
  items: TranscriptItem[];
  /** The text in the prompt box. */
  draft: string;
  context: ContextChip[];
  /** True when older items were dropped to fit. */
  truncated: boolean;
}

function compactItem(item: TranscriptItem): TranscriptItem {
  if (item.kind === 'tool' && item.output.length > MAX_PERSISTED_TOOL_OUTPUT) {
    return { ...item, output: item.output.slice(item.output.length - MAX_PERSISTED_TOOL_OUTPUT), outputTruncated: true };
  }
  return item;
}

export function buildSnapshot(items: readonly TranscriptItem[], draft: string, context: readonly ContextChip[], maxChars = DEFAULT_MAX_SNAPSHOT_CHARS): PersistedPanel {
  let budget = maxChars - JSON.stringify({ draft, context }).length - 100;
  const kept: TranscriptItem[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item === undefined) continue;
    const compact = compactItem(item);
    const size = JSON.stringify(compact).length + 1;
    if (size > budget) break;
    budget -= size;
    kept.push(compact);
  }
  kept.reverse();
  return { v: PERSIST_VERSION, items: kept, draft, context: [...context], truncated: kept.length < items.length };
}
