import * as z from '../../protocol/zod';
import type { ChatToolSpec } from '../providers/types';
import type { ToolDefinition } from '../tools/types';
import type { EventDraft } from './host';
import { newId } from './ids';
import { RequestCancelledError, type PendingRequests } from './pending-requests';
import { editorSchemaProblem } from './editor-tool-schema';

export interface EditorToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type McpAnswer = { success: true; result: string } | { success: false; error: string };

export const EDITOR_TOOL_PREFIX = 'editor_';
/**
 * How long the runtime waits for the editor to answer one invocation: AGENTCLI_EDITOR_TOOL_TIMEOUT_MS when it is a
 * positive number of milliseconds (a negative or garbled value would time every call out at once), else 60 s.
 */
export function editorToolTimeoutMs(raw: string | undefined): number {
  const n = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(n) && n > 0 ? n : 60_000;
}
export const EDITOR_TOOL_TIMEOUT_MS = editorToolTimeoutMs(process.env.AGENTCLI_EDITOR_TOOL_TIMEOUT_MS);

/**
 * Tools hosted by the editor (diagnostics, symbols, ...). The model sees them as `editor_<name>`; a call becomes an
 * `mcp_invocation` event answered by exactly one `respondToMcpInvocation` with the same request id.
 */
export class EditorTools {
  private descriptors: EditorToolDescriptor[] = [];

  constructor(
    private readonly pending: PendingRequests,
    private readonly emit: (draft: EventDraft) => void,
    private readonly currentTurn: () => { runId: string; turnId: string } | undefined,
  ) {}

  set(descriptors: EditorToolDescriptor[]): string[] {
    const names = new Set<string>();
    descriptors.forEach((d, i) => {
      if (names.has(d.name)) throw new Error(`duplicate editor tool name "${d.name}"`);
      names.add(d.name);
      const problem = editorSchemaProblem(d.inputSchema, `tools[${i}].inputSchema`);
      if (problem) throw new Error(`editor tool "${d.name}": ${problem}; the previous editor tools stay registered`);
    });
    this.descriptors = descriptors;
    return descriptors.map((d) => EDITOR_TOOL_PREFIX + d.name);
  }

  specs(): ChatToolSpec[] {
    return this.descriptors.map((d) => ({ name: EDITOR_TOOL_PREFIX + d.name, description: d.description, parameters: d.inputSchema }));
  }

  definitions(): ToolDefinition[] {
    return this.descriptors.map((d) => this.definition(d));
  }

  answer(requestId: string, answer: McpAnswer): boolean {
    return this.pending.answer(requestId, 'mcp', answer);
  }

  private definition(d: EditorToolDescriptor): ToolDefinition {
    const name = EDITOR_TOOL_PREFIX + d.name;
    return {
      name,
      description: d.description,
      inputSchema: z.record(z.string(), z.unknown()),
      readOnly: true,
      permissionTarget: () => ({ ruleTool: name, description: `Ask the editor: ${d.name}` }),
      run: async (args, ctx) => {
        const turn = this.currentTurn();
        if (!turn) return { output: 'no active turn', isError: true };
        const requestId = newId('mcp');
        this.emit({ type: 'mcp_invocation', ...turn, requestId, toolCallId: ctx.toolCallId, tool: d.name, args });
        try {
          const answer = await this.pending.wait<McpAnswer>(requestId, 'mcp', { tool: d.name }, ctx.signal, EDITOR_TOOL_TIMEOUT_MS);
          return answer.success ? { output: answer.result } : { output: `editor tool ${d.name} failed: ${answer.error}`, isError: true };
        } catch (e) {
          if (e instanceof RequestCancelledError && e.reason === 'timeout') {
            return { output: `editor tool ${d.name} did not answer within ${EDITOR_TOOL_TIMEOUT_MS} ms`, isError: true };
          }
          throw e;
        }
      },
    };
  }
}
