import { randomBytes } from 'node:crypto';

/** Short unique ids with a readable prefix, e.g. `run_5f2c9a1b`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}
