/**
 * The compact snapshot kept with `vscode.setState()` so a hidden-and-shown webview restores without waiting for the
 * extension. Bounded: the newest items that fit `maxChars` of JSON, tool output cut short. Pure: no DOM.
 */
import { z } from 'zod';
import { ContextChip, TranscriptItem } from '../../../src/shared/chat/transcriptItems';

export const PERSIST_VERSION = 1;
export const DEFAULT_MAX_SNAPSHOT_CHARS = 400_000;
const MAX_PERSISTED_TOOL_OUTPUT = 2_000;

/** Built when a snapshot is first read (the schemas it uses are built on first use too). */
export const PersistedPanel = z.lazy(() =>
  z.object({
    v: z.literal(PERSIST_VERSION),
    items: z.array(TranscriptItem),
    /** The text in the prompt box. */
    draft: z.string(),
    context: z.array(ContextChip),
    /** True when older items were dropped to fit. */
    truncated: z.boolean(),
  }),
);
export type PersistedPanel = z.infer<typeof PersistedPanel>;

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

/** The stored snapshot, or undefined when there is none or it is from another version or damaged. */
export function readSnapshot(raw: unknown): PersistedPanel | undefined {
  if (raw === undefined || raw === null) return undefined; // nothing saved (a first start): no schema to build
  const parsed = PersistedPanel.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
