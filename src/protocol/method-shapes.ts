import * as z from './zod';

/** No params at all (a request that carries none). */
export const Empty = z.object({}).strict();

/** A bare acknowledgement. */
export const Ok = z.object({ ok: z.literal(true) });
