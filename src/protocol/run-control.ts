import * as z from './zod';
import { MAX_YOLO_MINUTES } from './limits';
import { PermissionMode } from './records';
import { Ok } from './method-shapes';

export const YoloState = z.object({ active: z.boolean(), expiresAt: z.string().optional() });

/** Steering runs: step decisions (SDK `stopWhen`), plan mode and its plans, the permission mode and yolo. */
export const runControlMethods = {
  /** Host's answer to a `step_end` with `awaitingDecision`. */
  respondToStep: {
    params: z.object({
      runId: z.string().min(1),
      stepNumber: z.number().int().positive(),
      decision: z.enum(['continue', 'stop']),
      reason: z.string().optional(),
    }),
    result: Ok,
  },
  setPlanMode: { params: z.object({ enabled: z.boolean() }), result: z.object({ planMode: z.boolean() }) },
  /**
   * The answer to a `plan_proposed`: `accept` leaves plan mode and starts a run executing the plan step by step
   * (`plan_update` events); `revise` sends `note` as the next user message and stays in plan mode. Both answer the
   * new run's id.
   */
  respondToPlan: {
    params: z
      .object({ planId: z.string().min(1), decision: z.enum(['accept', 'revise']), note: z.string().optional() })
      .refine((p) => p.decision !== 'revise' || (p.note?.trim() ?? '') !== '', {
        message: 'revise needs a note saying what to change',
        path: ['note'],
      }),
    result: z.object({ runId: z.string() }),
  },
  setPermissionMode: { params: z.object({ mode: PermissionMode }), result: z.object({ permissionMode: PermissionMode }) },
  /** `timeoutMinutes` (at most MAX_YOLO_MINUTES) turns yolo off again after that long; without it yolo stays on. */
  setYolo: {
    params: z.object({
      enabled: z.boolean(),
      timeoutMinutes: z
        .number()
        .positive('timeoutMinutes must be positive')
        .max(MAX_YOLO_MINUTES, `timeoutMinutes must be at most ${MAX_YOLO_MINUTES} (7 days); leave it out to keep yolo on until it is turned off`)
        .optional(),
    }),
    result: z.object({ yolo: YoloState }),
  },
} as const;
