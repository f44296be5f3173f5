import * as z from '../../protocol/zod';
import type { ToolDefinition } from './types';
import { ToolInputError } from './types';
import { guardRedirect, judgeWritePath, writeModeNote, writePathForRun } from './tool-paths';

// Built on first use (z.lazy): the CLI carries this tool's JSON Schema ready-made (see esbuild.mjs), so a start
// builds no tool schema until a call comes.
const schema = z.lazy(() =>
  z.object({
    path: z.string().describe('File path, relative to the workspace root or absolute'),
  }),
);

export const deleteFileTool: ToolDefinition<typeof schema> = {
  name: 'delete_file',
  description: 'Delete a file.',
  inputSchema: schema,
  readOnly: false,
  permissionTarget(args, ctx) {
    const resolved = judgeWritePath(args, ctx.cwd, args.path);
    return { ruleTool: 'Write', paths: [resolved.real], description: `Delete ${resolved.relative}` };
  },
  async run(args, ctx) {
    const resolved = await writePathForRun(args, ctx.cwd, args.path);
    if (!(await ctx.files.exists(resolved.real))) {
      throw new ToolInputError(`file not found: ${resolved.relative} (nothing to delete)`);
    }
    const outcome = await guardRedirect(resolved.relative, ctx.cwd, () => ctx.files.delete(resolved.real));
    return { output: `Deleted ${resolved.relative}. ${writeModeNote(outcome.mode)}` };
  },
};
