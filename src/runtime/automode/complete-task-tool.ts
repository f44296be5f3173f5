import * as z from '../../protocol/zod';
import type { ToolDefinition } from '../tools/types';

export const COMPLETE_TASK_TOOL = 'complete_task';
const MAX_SUMMARY_CHARS = 20_000;

const schema = z.object({
  summary: z.string().trim().min(1, 'say what was done').max(MAX_SUMMARY_CHARS).describe('What was done to meet the goal, and how it was checked'),
});

/**
 * Offered only in auto-mode: the model declares the goal met. The run ends after the iteration it was called in;
 * `onComplete` receives the summary.
 */
export function createCompleteTaskTool(onComplete: (summary: string) => void): ToolDefinition {
  const tool: ToolDefinition<typeof schema> = {
    name: COMPLETE_TASK_TOOL,
    description:
      'Auto-mode only: declare the goal fully met, with a summary of what was done. Call it only once the work is done and checked; ' +
      'auto-mode then ends after this iteration. Do not call it to give up: explain what blocks you instead.',
    inputSchema: schema,
    readOnly: true,
    permissionTarget: () => ({ ruleTool: 'Read', description: 'Declare the auto-mode goal met' }),
    run(args) {
      onComplete(args.summary);
      return Promise.resolve({ output: 'Recorded: the goal is met and auto-mode ends after this iteration. Reply with a one-line final message and call no more tools.' });
    },
  };
  return tool as unknown as ToolDefinition;
}
