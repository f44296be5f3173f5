import * as z from './zod';

/** Longest a browser handoff token may live (one hour); the default is five minutes. */
export const MAX_HANDOFF_TTL_SECONDS = 3600;
export const DEFAULT_HANDOFF_TTL_SECONDS = 300;

/**
 * Why a handoff was not attached: `unknown` (no handoff of this user has that token: mistyped, forged, or of another
 * user), `expired`, `used` (tokens are single-use), `busy` (the runtime holding the session refused to release it:
 * a run is active there), `other_workspace` (the session belongs to another folder), `not_found` (the handed-off
 * session has no saved messages to continue, or is gone), `corrupt` (its saved file cannot be read).
 */
export const HandoffFailureReason = z.enum(['unknown', 'expired', 'used', 'busy', 'other_workspace', 'not_found', 'corrupt']);
export type HandoffFailureReason = z.infer<typeof HandoffFailureReason>;

export const HandoffAttachResult = z.discriminatedUnion('attached', [
  z.object({ attached: z.literal(true), sessionId: z.string(), messageCount: z.number().int().nonnegative() }),
  z.object({ attached: z.literal(false), reason: HandoffFailureReason, message: z.string() }),
]);
export type HandoffAttachResult = z.infer<typeof HandoffAttachResult>;

/** Browser handoff (spec 001 §4.3, §5.8): a live session moves between surfaces. */
export const handoffMethods = {
  /**
   * A short-lived, single-use token for this runtime's live session and the url of a page on 127.0.0.1 that attaches
   * to it with the token. Only the token's hash is stored. The page works while this runtime lives.
   */
  createBrowserHandoff: {
    params: z.object({ ttlSeconds: z.number().int().positive().max(MAX_HANDOFF_TTL_SECONDS).optional() }),
    result: z.object({ token: z.string(), url: z.string(), expiresAt: z.string(), sessionId: z.string() }),
  },
  /**
   * This runtime takes over the session handed off by another runtime of this user (a terminal session continued in
   * the editor): the other runtime releases it and starts a new session. Refused with a reason, never another session.
   */
  attachBrowserHandoff: {
    params: z.object({ token: z.string().min(1).max(512) }),
    result: HandoffAttachResult,
  },
  /** Like attachBrowserHandoff, with the newest unexpired, unused handoff of this user (of this folder by default). */
  attachLatestBrowserHandoff: {
    params: z.object({ allWorkspaces: z.boolean().optional() }),
    result: HandoffAttachResult,
  },
} as const;
