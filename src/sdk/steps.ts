import type { AgentEvent } from '../protocol/events';
import type { SdkEvent } from './generic-event';
import type { AgentStep } from '../protocol/records';

interface TurnDraft {
  thought: string;
  toolCalls: AgentStep['toolCalls'];
  toolResults: AgentStep['toolResults'];
}

/**
 * Builds the completed tool steps of a run from its events. A `step_end` event gives the step directly;
 * a turn that ends without one (an older runtime) is assembled from its message and tool events.
 */
export class StepCollector {
  readonly steps: AgentStep[] = [];
  private readonly drafts = new Map<string, TurnDraft>();
  private readonly covered = new Set<string>();

  add(e: SdkEvent): void {
    switch (e.type) {
      case 'step_end':
        this.covered.add(e.turnId);
        this.drafts.delete(e.turnId);
        this.steps.push(e.step);
        return;
      case 'message_end':
        if (!this.covered.has(e.turnId) && e.content.trim() !== '') this.draft(e.turnId).thought += e.content;
        return;
      case 'tool_start':
        if (!this.covered.has(e.turnId)) this.draft(e.turnId).toolCalls.push({ tool: e.toolName, args: e.args });
        return;
      case 'tool_end':
        if (!this.covered.has(e.turnId)) this.draft(e.turnId).toolResults.push(toolResult(e));
        return;
      case 'turn_end':
        this.closeTurn(e.turnId);
        return;
      default:
        return;
    }
  }

  private draft(turnId: string): TurnDraft {
    let d = this.drafts.get(turnId);
    if (!d) {
      d = { thought: '', toolCalls: [], toolResults: [] };
      this.drafts.set(turnId, d);
    }
    return d;
  }

  private closeTurn(turnId: string): void {
    const d = this.drafts.get(turnId);
    this.drafts.delete(turnId);
    if (this.covered.has(turnId) || !d || d.toolCalls.length === 0) return;
    const step: AgentStep = { stepNumber: this.steps.length + 1, toolCalls: d.toolCalls, toolResults: d.toolResults };
    if (d.thought !== '') step.thought = d.thought;
    this.steps.push(step);
  }
}

function toolResult(e: Extract<AgentEvent, { type: 'tool_end' }>): AgentStep['toolResults'][number] {
  const r: AgentStep['toolResults'][number] = { tool: e.toolName, success: e.success };
  if (e.output !== undefined) r.output = e.output;
  if (e.error !== undefined) r.error = e.error;
  return r;
}
