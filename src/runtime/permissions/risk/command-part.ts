/** The parts a command line splits into, and what the risk judges share about them (used by shell-split.ts and risk/). */
import type { RiskContext } from './paths';

export interface WriteRedirection {
  operator: string;
  /** The target as written (after quote removal), e.g. `out.txt`. */
  target: string;
  /** The target is only known when the command runs (`> "$F"`). */
  dynamic?: boolean;
}

export interface CommandPart {
  /** Normalized text: words joined by single spaces, leading environment assignments left out. */
  text: string;
  words: string[];
  /** Leading `NAME=value` assignments, e.g. `["CI=1"]`. */
  env: string[];
  /** Redirections that write to files (not `2>&1`, not /dev/null). */
  writes: WriteRedirection[];
  /** Why the part is risky (always asks), if it is. */
  risky?: string;
  /** Why the part cannot be judged (always asks), if so. */
  unparseable?: string;
}

/** What flows into a pipeline stage from the stages before it. */
export interface Feed {
  downloaded: boolean;
  secrets: boolean;
  /** The text when it comes from one `echo`/`printf` of static words. */
  literal?: string;
}

/** Facts about a part that matter to the stages after it. */
export interface PartFacts {
  downloads: boolean;
  secrets: boolean;
  literal?: string;
}

/** State shared by a command line and every script nested in it. */
export interface Shared {
  ctx: RiskContext;
  /** Files the line downloads (normalized paths), so running them later is caught. */
  downloaded: Set<string>;
  facts: WeakMap<CommandPart, PartFacts>;
}
