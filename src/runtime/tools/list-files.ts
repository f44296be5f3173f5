import { promises as fs } from 'node:fs';
import * as z from '../../protocol/zod';
import path from 'node:path';
import type { ToolContext, ToolDefinition } from './types';
import { ToolInputError } from './types';
import { globFilter, hasPendingFilesUnder, ignoredPathChecker, listWorkspaceFiles, MAX_WALKED_FILES, relativeGlobFilter, rulesFor } from './file-listing';
import { latin1Bytes, textOfKey } from './path-keys';
import { findRipgrep, listWithRipgrep, type CountOnly } from './ripgrep';
import { SmallestKept } from './smallest-kept';
import { isWithin } from '../workspace/paths';
import { displayPath, resolveArgPath, ShownBelow } from './tool-paths';

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 5000;

// Built on first use (z.lazy): the CLI carries this tool's JSON Schema ready-made (see esbuild.mjs), so a start
// builds no tool schema until a call comes.
const schema = z.lazy(() =>
  z.object({
    path: z.string().optional().describe('Folder to list (default: workspace root)'),
    pattern: z.string().optional().describe('Glob, e.g. "*.ts" (file name) or "src/**/*.test.ts" (relative to path)'),
    limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Max files (default ${DEFAULT_LIMIT})`),
  }),
);

/** The first `limit` files in listing order and how many there are in all (ripgrep-backed listings hold no more). */
interface LimitedListing {
  /** As the model sees them (displayPath). */
  shown: string[];
  total: number;
  /** The walk stopped early (too many files visited). */
  truncated: boolean;
}

/**
 * `rg --files` streamed: only the first `limit` paths are kept, the rest counted. Proposals still count: files they
 * delete are dropped and files they create are added. Paths are compared relative to `base` (in `/` form, the order of
 * the absolute paths too) and made absolute only for the files shown.
 */
async function listWithRg(ctx: ToolContext, base: string, pattern: string | undefined, limit: number, rgPath: string): Promise<LimitedListing> {
  const rules = rulesFor(ctx.files.root, base);
  const filter = relativeGlobFilter(pattern);
  const relOf = (file: string) => toPosix(path.relative(base, file));
  const pending = ctx.files.pendingPaths();
  const deleted = new Set(pending.deleted.filter((f) => isWithin(base, f)).map(relOf));
  const created = new Set<string>();
  for (const file of pending.created) {
    if (isWithin(base, file) && file !== base && filter(relOf(file)) && !(await rules.ignoresPath(file))) created.add(relOf(file));
  }
  // Kept as path keys (path-keys.ts): sorted as plain strings, and made text only for the files shown.
  const kept = new SmallestKept<string>(limit);
  // Every file counts unless proposals or a pattern must be checked: then, once `limit` are kept, a file sorting at or
  // after the largest kept one is only counted, by the read loop (on its bytes).
  const checkEach = deleted.size > 0 || created.size > 0 || pattern !== undefined;
  const countOnly: CountOnly = { from: undefined, counted: 0, stopAt: MAX_WALKED_FILES };
  let total = 0;
  const add = (key: string) => {
    total++;
    kept.offer(key);
    if (!checkEach) countOnly.from = kept.largest();
  };
  // The shown files are checked against the workspace's rules once ripgrep is done (below). The first file's check
  // starts while ripgrep still runs: the root's rule files are read and compiled by then.
  const ignored = ignoredPathChecker(rules);
  let warmed = false;
  const { stopped } = await listWithRipgrep({
    rgPath,
    target: base,
    targetIsRulesRoot: rules.root === base,
    nameGlob: pattern && !pattern.includes('/') ? pattern : undefined,
    signal: ctx.signal,
    countOnly,
    onFile: (file) => {
      if (checkEach) {
        const rel = file.text();
        if (deleted.has(rel) || created.has(rel) || !filter(rel)) return true;
      }
      if (!warmed) {
        warmed = true;
        void ignored(below(base, file.text())).catch(() => undefined);
      }
      add(file.key());
      return total + countOnly.counted < MAX_WALKED_FILES;
    },
  });
  total += countOnly.counted;
  for (const rel of created) add(latin1Bytes(rel));
  // Ripgrep may read ignore files above the listed folder or differ in a corner of the gitignore dialect: the shown
  // files are checked against the workspace's own rules (it can only have listed fewer).
  const shown: string[] = [];
  const paths = new ShownBelow(ctx.cwd, base);
  const rels = kept.sorted().map(textOfKey);
  // All at once: the rule files of the shown files' folders are read side by side, not one folder after another.
  const verdicts = await Promise.all(rels.map((rel) => !created.has(rel) && ignored(below(base, rel))));
  rels.forEach((rel, i) => {
    if (verdicts[i]) total--;
    else shown.push(paths.relative(rel));
  });
  return { shown, total, truncated: stopped };
}

async function listWithJs(ctx: ToolContext, base: string, pattern: string | undefined, limit: number): Promise<LimitedListing> {
  const listing = await listWorkspaceFiles(ctx.files, base, globFilter(pattern, base), ctx.signal);
  return { shown: listing.files.slice(0, limit).map((f) => displayPath(ctx.cwd, f)), total: listing.files.length, truncated: listing.truncated };
}

const toPosix = path.sep === '/' ? (file: string) => file : (file: string) => file.split(path.sep).join('/');

/** The absolute path of `rel` (a `/`-form path with no `.` or `..` parts, as ripgrep prints them) below `base`. */
const below =
  path.sep === '/'
    ? (base: string, rel: string) => (base.endsWith('/') ? base + rel : `${base}/${rel}`)
    : (base: string, rel: string) => path.join(base, ...rel.split('/'));

export interface ListFilesToolOptions {
  /** Ripgrep binary: a path, `null` to always walk in JS, or undefined to look it up at each call. */
  rgPath?: string | null;
}

export function createListFilesTool(options: ListFilesToolOptions = {}): ToolDefinition<typeof schema> {
  return {
    name: 'list_files',
    description: 'List files recursively (sorted, .gitignore respected), optionally filtered by a glob.',
    inputSchema: schema,
    readOnly: true,
    permissionTarget(args, ctx) {
      const resolved = resolveArgPath(ctx.cwd, args.path ?? '.');
      return { ruleTool: 'Read', paths: [resolved.real], description: `List files in ${resolved.relative}` };
    },
    async run(args, ctx) {
      const resolved = resolveArgPath(ctx.cwd, args.path ?? '.');
      const stat = await fs.stat(resolved.real).catch(() => null);
      if (!stat && !hasPendingFilesUnder(ctx.files, resolved.real)) throw new ToolInputError(`folder not found: ${resolved.relative}`);
      if (stat && !stat.isDirectory()) throw new ToolInputError(`${resolved.relative} is a file, not a folder; use read_file`);
      const limit = args.limit ?? DEFAULT_LIMIT;
      const rgPath = options.rgPath === undefined ? findRipgrep() : options.rgPath;
      const listing =
        rgPath && stat
          ? await listWithRg(ctx, resolved.real, args.pattern, limit, rgPath)
          : await listWithJs(ctx, resolved.real, args.pattern, limit);
      const where = `${resolved.relative}${args.pattern ? ` matching ${JSON.stringify(args.pattern)}` : ''}`;
      if (listing.total === 0) return { output: `No files in ${where}.` };
      const lines = [...listing.shown];
      if (listing.total > listing.shown.length) {
        lines.push(`[showing ${listing.shown.length} of ${listing.total} files in ${where}; narrow with path or pattern, or raise limit]`);
      }
      if (listing.truncated) lines.push('[the folder has more files than one listing visits; narrow with path]');
      return { output: lines.join('\n') };
    },
  };
}
