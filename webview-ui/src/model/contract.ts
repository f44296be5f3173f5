/**
 * What the panel validates with: the extension's messages and the saved snapshot. It brings zod and every schema, so
 * the page loads it (loadContract.ts) after the prompt box is built, in a task of its own; nothing the panel receives
 * is used before it has passed these checks.
 */
import * as z from '../../../src/protocol/zod';
import { ContextChip, TranscriptItem } from '../../../src/shared/chat/transcriptItems';
import { PERSIST_VERSION, type PersistedPanel } from './persist';

export { safeParseToWebview } from '../../../src/shared/chat/messages';

const PersistedPanelSchema: z.ZodType<PersistedPanel> = z.object({
  v: z.literal(PERSIST_VERSION),
  items: z.array(TranscriptItem),
  draft: z.string(),
  context: z.array(ContextChip),
  truncated: z.boolean(),
});

/** The stored snapshot, or undefined when there is none or it is from another version or damaged. */
export function readSnapshot(raw: unknown): PersistedPanel | undefined {
  if (raw === undefined || raw === null) return undefined; // nothing saved (a first start)
  const parsed = PersistedPanelSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
