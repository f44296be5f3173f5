import type * as z from '../../protocol/zod';

/** `"changeIds": accept_selected needs at least one change id; "message": ...` — names every offending field. */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => {
      const where = i.path.length ? `"${i.path.map(String).join('.')}"` : 'params';
      if (i.code === 'unrecognized_keys') return `${where}: unknown field(s) ${i.keys.map((k) => `"${k}"`).join(', ')}`;
      return `${where}: ${i.message}`;
    })
    .join('; ');
}
