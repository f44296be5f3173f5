import * as z from './zod';
import { DirectoryAccessScope, PermissionScope } from './records';
import { Ok } from './method-shapes';

/** The host's answers to permission and directory access requests (events carrying a request id). */
export const permissionMethods = {
  permissionResponse: {
    params: z
      .object({
        requestId: z.string().min(1),
        allowed: z.boolean().optional(),
        decision: z.enum(['allow', 'deny']).optional(),
        scope: PermissionScope.optional(),
        /** Deny and tell the model what to do instead. */
        alternative: z.string().min(1).optional(),
      })
      .refine((p) => p.allowed !== undefined || p.decision !== undefined || p.alternative !== undefined, {
        message: 'give one of allowed, decision or alternative',
        path: ['allowed'],
      })
      .refine((p) => p.allowed === undefined || p.decision === undefined || p.allowed === (p.decision === 'allow'), {
        message: '"allowed" and "decision" disagree: give one of them (decision is the spelling of SDKs such as Python\'s)',
        path: ['decision'],
      })
      .refine((p) => p.alternative === undefined || (p.allowed !== true && p.decision !== 'allow'), {
        message: 'an alternative is a denial: leave out allowed: true / decision: "allow"',
        path: ['alternative'],
      }),
    result: Ok,
  },
  acknowledgePermission: { params: z.object({ requestId: z.string().min(1) }), result: Ok },
  respondToDirectoryAccess: {
    params: z.object({
      requestId: z.string().min(1),
      allowed: z.boolean(),
      scope: DirectoryAccessScope.optional(),
      /** Why it was denied, told to the model (default: the user denied it). */
      reason: z.string().max(500).optional(),
    }),
    result: Ok,
  },
  acknowledgeDirectoryAccess: { params: z.object({ requestId: z.string().min(1) }), result: Ok },
} as const;

/**
 * The one reading of a `permissionResponse`: `allowed` (TypeScript) or `decision` (the spelling of other SDKs), and an
 * `alternative` is always a denial. The schema refuses answers where they disagree.
 */
export function permissionAllowed(p: { allowed?: boolean; decision?: 'allow' | 'deny'; alternative?: string }): boolean {
  if (p.alternative !== undefined) return false;
  return p.allowed ?? p.decision === 'allow';
}
