import { uniqueSuffix } from '../unique-id';

/** Short unique ids with a readable prefix, e.g. `run_5f2c9a1b`. */
export function newId(prefix: string): string {
  return `${prefix}_${uniqueSuffix()}`;
}
