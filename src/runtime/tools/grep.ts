import { promises as fs } from 'node:fs';
import * as z from '../../protocol/zod';
import { isWithin } from '../workspace/paths';
import { globFilter, hasPendingFilesUnder, ignoredPathChecker, listWorkspaceFiles, rulesFor } from './file-listing';
import { compileRegex, formatMatches, MatchCollector, searchContent, type GrepQuery } from './grep-matches';
import { findRipgrep, runRipgrep } from './ripgrep';
import { resolveArgPath } from './tool-paths';
import type { ToolContext, ToolDefinition } from './types';
import { ToolInputError } from './types';

const DEFAULT_MAX_RESULTS = 100;
const MAX_RESULTS_LIMIT = 2000;
/**
 * Matches examined per search; beyond this ripgrep is stopped and the output says there are more. Only the shown
 * matches are held, so this bounds time, not memory.
 */
const EXAMINE_CAP = 20_000;

// Built on first use (z.lazy): the CLI carries this tool's JSON Schema ready-made (see esbuild.mjs), so a start
// builds no tool schema until a call comes.
const schema = z.lazy(() =>
  z.object({
    pattern: z.string().min(1).describe('Regular expression'),
    path: z.string().optional().describe('File or folder to search (default: workspace root)'),
    glob: z.string().optional().describe('Only files matching, e.g. "*.ts" or "src/**/*.ts" (relative to path)'),
    ignore_case: z.boolean().optional(),
    max_results: z.number().int().min(1).max(MAX_RESULTS_LIMIT).optional().describe(`Default ${DEFAULT_MAX_RESULTS}`),
  }),
);

export interface GrepToolOptions {
  /**
   * Ripgrep binary: a path, `null` to always use the built-in JS search, or undefined to look it up
   * (`AGENTCLI_RG_PATH`, then `rg` on PATH) at each call.
   */
  rgPath?: string | null;
}

interface SearchScope {
  target: string;
  isFile: boolean;
  filter: (absPath: string) => boolean;
  query: GrepQuery;
  signal: AbortSignal;
}

/** The JS search: walk the listing (which already honours ignore rules and proposals) and test each line. */
async function searchWithJs(ctx: ToolContext, scope: SearchScope, matches: MatchCollector): Promise<void> {
  const regex = compileRegex(scope.query);
  const files = scope.isFile
    ? [scope.target]
    : (await listWorkspaceFiles(ctx.files, scope.target, scope.filter, scope.signal)).files;
  for (const file of files) {
    if (scope.signal.aborted) {
      matches.incomplete = true;
      return;
    }
    const bytes = await ctx.files.readBytes(file).catch(() => null);
    if (!bytes) continue;
    for (const match of searchContent(file, bytes, regex)) {
      if (!matches.add(match)) return;
    }
  }
}

/**
 * Ripgrep over disk, streamed into the collector (stopped at its cap), then proposals searched in their proposed
 * content instead of the disk version.
 */
async function searchWithRipgrep(ctx: ToolContext, scope: SearchScope, rgPath: string, glob: string | undefined, matches: MatchCollector): Promise<void> {
  const rules = rulesFor(ctx.files.root, scope.target);
  const pending = ctx.files.pendingPaths();
  const overlay = new Set([...pending.created, ...pending.deleted, ...(pending.modified ?? [])]);
  const filtered = new Map<string, boolean>();
  // With no proposals to leave out and no glob to check again, a match that would not be shown is counted on its bytes.
  const countOnBytes = !scope.isFile && overlay.size === 0 && glob === undefined;
  const result = await runRipgrep({
    rgPath,
    query: scope.query,
    target: scope.target,
    targetIsFile: scope.isFile,
    targetIsRulesRoot: rules.root === scope.target,
    nameGlob: glob && !glob.includes('/') ? glob : undefined,
    signal: scope.signal,
    onMatch: (hit) => {
      if (countOnBytes && matches.countIfNotKept(hit.file, hit.line)) return !matches.incomplete;
      const match = hit.toMatch();
      if (overlay.has(match.absPath)) return true;
      let keep = filtered.get(match.absPath);
      if (keep === undefined) {
        keep = scope.isFile || scope.filter(match.absPath);
        // Only the verdicts of a bounded number of files are remembered.
        if (filtered.size < 10_000) filtered.set(match.absPath, keep);
      }
      return keep ? matches.add(match) : true;
    },
  });
  if (result.stopped) matches.incomplete = true;
  const proposals = [...pending.created, ...(pending.modified ?? [])].filter((f) =>
    scope.isFile ? f === scope.target : isWithin(scope.target, f) && scope.filter(f),
  );
  if (proposals.length > 0) {
    const regex = compileRegex(scope.query);
    for (const file of proposals) {
      if (!scope.isFile && (await rules.ignoresPath(file))) continue;
      const bytes = await ctx.files.readBytes(file).catch(() => null);
      if (bytes) for (const match of searchContent(file, bytes, regex)) matches.add(match);
    }
  }
}

/**
 * The shown matches, re-checked against the workspace's own ignore rules (ripgrep also reads ignore files above the
 * searched folder, so it can only have dropped more, but its gitignore dialect may differ in corner cases).
 */
async function shownMatches(ctx: ToolContext, scope: SearchScope, matches: MatchCollector): Promise<ReturnType<MatchCollector['shown']>> {
  const shown = matches.shown();
  if (scope.isFile) return shown;
  const ignoredPath = ignoredPathChecker(rulesFor(ctx.files.root, scope.target));
  const verdicts = new Map<string, boolean>();
  const kept = [];
  for (const match of shown) {
    let ignored = verdicts.get(match.absPath);
    if (ignored === undefined) {
      ignored = await ignoredPath(match.absPath);
      verdicts.set(match.absPath, ignored);
    }
    if (ignored) matches.total--;
    else kept.push(match);
  }
  return kept;
}

export function createGrepTool(options: GrepToolOptions = {}): ToolDefinition<typeof schema> {
  return {
    name: 'grep',
    description: 'Search file contents with a regex (.gitignore respected). Returns path:line:text, sorted.',
    inputSchema: schema,
    readOnly: true,
    permissionTarget(args, ctx) {
      const resolved = resolveArgPath(ctx.cwd, args.path ?? '.');
      return { ruleTool: 'Read', paths: [resolved.real], description: `Search ${resolved.relative} for ${JSON.stringify(args.pattern)}` };
    },
    async run(args, ctx) {
      const resolved = resolveArgPath(ctx.cwd, args.path ?? '.');
      const existsOnDisk = await fs.stat(resolved.real).catch(() => null);
      const proposedFile = !existsOnDisk && (await ctx.files.exists(resolved.real));
      const proposedFolder = !existsOnDisk && !proposedFile && hasPendingFilesUnder(ctx.files, resolved.real);
      if (!existsOnDisk && !proposedFile && !proposedFolder) throw new ToolInputError(`path not found: ${resolved.relative}`);
      const scope: SearchScope = {
        target: resolved.real,
        isFile: existsOnDisk ? !existsOnDisk.isDirectory() : proposedFile,
        filter: globFilter(args.glob, resolved.real),
        query: { pattern: args.pattern, ignoreCase: args.ignore_case ?? false },
        signal: ctx.signal,
      };
      const rgPath = options.rgPath === undefined ? findRipgrep() : options.rgPath;
      const matches = new MatchCollector(ctx.cwd, resolved.real, args.max_results ?? DEFAULT_MAX_RESULTS, EXAMINE_CAP);
      // A path that exists only in proposals is searched in JS; so is everything when ripgrep is missing.
      if (rgPath && existsOnDisk) await searchWithRipgrep(ctx, scope, rgPath, args.glob, matches);
      else await searchWithJs(ctx, scope, matches);
      const shown = rgPath && existsOnDisk ? await shownMatches(ctx, scope, matches) : matches.shown();
      if (shown.length === 0 && !matches.incomplete) {
        const where = `${resolved.relative}${args.glob ? ` (glob ${JSON.stringify(args.glob)})` : ''}`;
        return { output: `No matches for ${JSON.stringify(args.pattern)} in ${where}.` };
      }
      return { output: formatMatches(matches, shown) };
    },
  };
}
