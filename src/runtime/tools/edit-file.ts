import * as z from '../../protocol/zod';
import type { ToolDefinition } from './types';
import { ToolInputError } from './types';
import { explainNotFound, occurrenceLines } from './edit-match';
import { guardRedirect, judgeWritePath, lineCount, writeModeNote, writePathForRun } from './tool-paths';

// Built on first use (z.lazy): the CLI carries this tool's JSON Schema ready-made (see esbuild.mjs), so a start
// builds no tool schema until a call comes.
const schema = z.lazy(() =>
  z.object({
    path: z.string().describe('File path, relative to the workspace root or absolute'),
    old_text: z.string().describe('Exact text to replace (must be unique unless replace_all)'),
    new_text: z.string().describe('Replacement text'),
    replace_all: z.boolean().optional().describe('Replace every occurrence'),
  }),
);

/** When the file uses CRLF and the model sent LF, retry with CRLF so such files stay editable. */
function adaptLineEndings(content: string, oldText: string, newText: string): { oldText: string; newText: string } {
  if (content.includes(oldText) || !content.includes('\r\n') || oldText.includes('\r')) return { oldText, newText };
  const crlf = (s: string) => s.replace(/\n/g, '\r\n');
  return content.includes(crlf(oldText)) ? { oldText: crlf(oldText), newText: crlf(newText) } : { oldText, newText };
}

export const editFileTool: ToolDefinition<typeof schema> = {
  name: 'edit_file',
  description: 'Replace exact text in a file. old_text must match the file exactly (whitespace included) and be unique unless replace_all.',
  inputSchema: schema,
  readOnly: false,
  permissionTarget(args, ctx) {
    const resolved = judgeWritePath(args, ctx.cwd, args.path);
    return { ruleTool: 'Write', paths: [resolved.real], description: `Edit ${resolved.relative}` };
  },
  async run(args, ctx) {
    const resolved = await writePathForRun(args, ctx.cwd, args.path);
    const shown = resolved.relative;
    if (args.old_text === '') throw new ToolInputError('old_text is empty: give the exact text to replace, or use write_file to create a file');
    if (args.old_text === args.new_text) throw new ToolInputError('old_text and new_text are identical: nothing to change');
    const content = await ctx.files.readText(resolved.real);
    if (content === null) throw new ToolInputError(`file not found: ${shown} (use write_file to create it)`);
    const { oldText, newText } = adaptLineEndings(content, args.old_text, args.new_text);
    const lines = occurrenceLines(content, oldText);
    if (lines.length === 0) throw new ToolInputError(explainNotFound(content, oldText, shown));
    if (lines.length > 1 && !args.replace_all) {
      throw new ToolInputError(
        `old_text occurs ${lines.length} times in ${shown} (lines ${lines.join(', ')}). ` +
          'Include more surrounding lines to make it unique, or set replace_all to true.',
      );
    }
    const updated = args.replace_all
      ? content.split(oldText).join(newText)
      : content.slice(0, content.indexOf(oldText)) + newText + content.slice(content.indexOf(oldText) + oldText.length);
    const outcome = await guardRedirect(shown, ctx.cwd, () => ctx.files.write(resolved.real, updated));
    const span = lineCount(newText) > 1 ? `starting at line ${lines[0]}` : `at line ${lines[0]}`;
    const what = lines.length > 1 ? `${lines.length} occurrences (lines ${lines.join(', ')})` : `1 occurrence ${span}`;
    return { output: `Edited ${shown}: replaced ${what}. ${writeModeNote(outcome.mode)}` };
  },
};
