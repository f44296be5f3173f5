import { promises as fs } from 'node:fs';
import { z } from 'zod';
import type { ToolDefinition } from './types';
import { ToolInputError } from './types';
import { globFilter, hasPendingFilesUnder, listWorkspaceFiles } from './file-listing';
import { displayPath, resolveArgPath } from './tool-paths';

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 5000;

const schema = z.object({
  path: z.string().optional().describe('Folder to list (default: workspace root)'),
  pattern: z.string().optional().describe('Glob, e.g. "*.ts" (file name) or "src/**/*.test.ts" (relative to path)'),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Max files (default ${DEFAULT_LIMIT})`),
});

export const listFilesTool: ToolDefinition<typeof schema> = {
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
    const listing = await listWorkspaceFiles(ctx.files, resolved.real, globFilter(args.pattern, resolved.real), ctx.signal);
    const limit = args.limit ?? DEFAULT_LIMIT;
    const where = `${resolved.relative}${args.pattern ? ` matching ${JSON.stringify(args.pattern)}` : ''}`;
    if (listing.files.length === 0) return { output: `No files in ${where}.` };
    const lines = listing.files.slice(0, limit).map((f) => displayPath(ctx.cwd, f));
    if (listing.files.length > limit) {
      lines.push(`[showing ${limit} of ${listing.files.length} files in ${where}; narrow with path or pattern, or raise limit]`);
    }
    if (listing.truncated) lines.push('[the folder has more files than one listing visits; narrow with path]');
    return { output: lines.join('\n') };
  },
};
