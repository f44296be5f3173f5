import type { LoopType, PermissionMode } from '../../protocol/records';
import type { SavedSessions } from '../sessions/saved-sessions';
import type { Config } from '../config/schema';
import type { ModelProvider } from '../providers/types';
import type { WorkspaceFiles } from '../workspace/types';
import type { EventDraft, RunHost } from './host';
import type { PendingRequests } from './pending-requests';
import type { RunOutcome } from './react-loop';
import type { Selection } from './selection';

export interface SessionOptions {
  cwd: string;
  home?: string;
  config: Config;
  projectConfigFile: string;
  host: RunHost;
  /** rpc mode and --patch: writes become a change batch that lands only after a decision. */
  batchMode: boolean;
  permissionMode?: PermissionMode;
  selection?: Selection;
  systemPrompt?: string;
  appendSystemPrompt?: string[];
  skills?: string[];
  maxIterations?: number;
  /** `--loop-type`: the run loop strategy (else config `loopType`). */
  loopType?: LoopType;
  /** Saves the session as it happens and reads saved ones (attach); absent in tests that need no saving. */
  saved?: SavedSessions;
  /** Auto-mode in a worktree: share the user's session's pending requests, so the host answers them as usual. */
  pending?: PendingRequests;
  /** Auto-mode in a worktree: writes land directly but need no approval of their own (the run's diff is reviewed). */
  writesReviewedLater?: boolean;
  /** How tools read and write files in `cwd` instead of the batch or disk default (ACP: through the client's editor). */
  files?: (cwd: string, emit: (draft: EventDraft) => void) => WorkspaceFiles;
  /** Builds the model provider for a run (default: from the config); in-process tests pass a scripted provider. */
  providerFactory?: (config: Config, selection: Selection) => ModelProvider;
}

export interface ActiveRun {
  runId: string;
  controller: AbortController;
  done: Promise<RunOutcome>;
}
