/** The transcript as the panel and the session store hold it (the reducer in transcriptReducer.ts updates it). */
import type { TranscriptItem } from '../transcriptItems';

export interface TranscriptModel {
  items: TranscriptItem[];
  /** Item id → index in `items`. */
  index: Map<string, number>;
  /** The active run, from agent_start until agent_end. */
  activeRunId: string | undefined;
  nextLocalId: number;
}
