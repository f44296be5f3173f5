import { promises as fs } from 'node:fs';
import * as z from '../../protocol/zod';
import type { ToolDefinition } from './types';
import { ToolInputError } from './types';
import { guardRedirect, judgeWritePath, lineCount, writeModeNote, writePathForRun } from './tool-paths';

// Built on first use (z.lazy): the CLI carries this tool's JSON Schema ready-made (see esbuild.mjs), so a start
// builds no tool schema until a call comes.
const schema = z.lazy(() =>
  z.object({
    path: z.string().describe('File path, relative to the workspace root or absolute'),
    content: z.string().describe('The complete new file content'),
  }),
);

async function isDirectory(absPath: string): Promise<boolean> {
  try {
    return (await fs.stat(absPath)).isDirectory();
  } catch {
    return false;
  }
}

export const writeFileTool: ToolDefinition<typeof schema> = {
  name: 'write_file',
  description: 'Create a file or replace its whole content. Prefer edit_file for changes to existing files.',
  inputSchema: schema,
  readOnly: false,
  permissionTarget(args, ctx) {
    const resolved = judgeWritePath(args, ctx.cwd, args.path);
    return { ruleTool: 'Write', paths: [resolved.real], description: `Write ${resolved.relative}` };
  },
  async run(args, ctx) {
    const resolved = await writePathForRun(args, ctx.cwd, args.path);
    if (await isDirectory(resolved.real)) {
      throw new ToolInputError(`${resolved.relative} is a directory; give a file path`);
    }
    const outcome = await guardRedirect(resolved.relative, ctx.cwd, () => ctx.files.write(resolved.real, args.content));
    const verb = outcome.kind === 'create' ? 'Created' : 'Updated';
    return { output: `${verb} ${resolved.relative} (${lineCount(args.content)} lines). ${writeModeNote(outcome.mode)}` };
  },
};
