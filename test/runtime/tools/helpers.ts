import { realpathSync, rmSync } from 'node:fs';
import type { ToolContext, ToolDefinition, ToolResult } from '../../../src/runtime/tools/types';
import type { WorkspaceFiles } from '../../../src/runtime/workspace/types';
import { makeTempDir } from '../../helpers/temp-dir';

/** A fresh temp folder (realpath, so comparisons with resolved paths hold); call the returned cleanup after. */
export function tempDir(prefix = 'agentcli-test-'): { dir: string; cleanup: () => void } {
  const dir = realpathSync(makeTempDir(prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestContext extends ToolContext {
  chunks: string[];
  controller: AbortController;
}

export function makeContext(files: WorkspaceFiles, outputDir: string, toolCallId = 'call_1'): TestContext {
  const controller = new AbortController();
  const chunks: string[] = [];
  return {
    cwd: files.root,
    files,
    signal: controller.signal,
    toolCallId,
    onOutput: (chunk) => chunks.push(chunk),
    outputDir,
    chunks,
    controller,
  };
}

/** Validate the arguments with the tool's schema (as the loop does) and run it. */
export async function runTool(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  return tool.run(tool.inputSchema.parse(args), ctx);
}

/** Run a tool expecting a ToolInputError or an error result; returns the message. */
export async function toolError(tool: ToolDefinition, args: unknown, ctx: ToolContext): Promise<string> {
  try {
    const result = await runTool(tool, args, ctx);
    if (result.isError) return result.output;
  } catch (err) {
    if ((err as Error).name === 'ToolInputError') return (err as Error).message;
    throw err;
  }
  throw new Error(`expected ${tool.name} to fail`);
}
