/**
 * Outgoing events checked against the protocol, in tests and debug runs. `AGENTCLI_VALIDATE_EVENTS=1` (set by the
 * test helpers) makes an event the protocol does not allow stop the runtime with the event and the problem on stderr
 * (exit code 70), so a test notices at once; `SERVICE_DEBUG` only logs it. Ordinary runs skip the check.
 */
import { AgentEvent } from '../../protocol';
import { formatZodIssues } from './format-issues';

export const INVALID_EVENT_EXIT_CODE = 70;

export type EventCheck = (event: AgentEvent) => void;

const TRUE = /^(?:1|true|yes|on)$/i;

export function eventCheckFromEnv(env: NodeJS.ProcessEnv, log: (line: string) => void, exit: (code: number) => void): EventCheck | undefined {
  const strict = TRUE.test(env.AGENTCLI_VALIDATE_EVENTS ?? '');
  if (!strict && !TRUE.test(env.SERVICE_DEBUG ?? '')) return undefined;
  return (event) => {
    const parsed = AgentEvent.safeParse(event);
    if (parsed.success) return;
    const type = typeof (event as { type?: unknown }).type === 'string' ? (event as { type: string }).type : '?';
    log(`agentcli: sent an event the protocol does not allow (${type}): ${formatZodIssues(parsed.error.issues)}: ${JSON.stringify(event).slice(0, 500)}`);
    if (strict) exit(INVALID_EVENT_EXIT_CODE);
  };
}
