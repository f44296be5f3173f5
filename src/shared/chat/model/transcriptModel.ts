/** The transcript as the panel and the session store hold it (the reducer in transcriptReducer.ts updates it). */
import type { TranscriptItem } from '../transcriptItems';

/** Tool output kept per card; older output is dropped from the front. (Here, not with the schemas: the panel starts without zod.) */
export const MAX_TOOL_OUTPUT = 64 * 1024;

export interface TranscriptModel {
  items: TranscriptItem[];
  /** Item id → index in `items`. */
  index: Map<string, number>;
  /** The active run, from agent_start until agent_end. */
  activeRunId: string | undefined;
  nextLocalId: number;
}
