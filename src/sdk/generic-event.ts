import { AgentEvent } from '../protocol/events';

/**
 * A notification whose `type` this SDK does not know, e.g. `automode_iteration` from a newer runtime (spec 001 §6:
 * "Unknown notifications fall back to a generic form"). Its fields are not validated; match on `eventType` and read
 * `payload`. Events of known types are always validated and never arrive in this form.
 */
export interface GenericEvent {
  readonly type: 'generic';
  /** The runtime's event type as sent, e.g. `automode_iteration`. */
  readonly eventType: string;
  readonly sessionId?: string;
  /** Present when the notification named a run; a run's stream carries its own generic events and run-less ones. */
  readonly runId?: string;
  /** The whole notification as received, `type` included. */
  readonly payload: Readonly<Record<string, unknown>>;
}

/** What a run's stream, `streamPrompt` and `RunResult.events` carry: the protocol's events, or the generic form. */
export type SdkEvent = AgentEvent | GenericEvent;

/** Every event type of the protocol this SDK was built with. */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(AgentEvent.options.map((o) => o.shape.type.value));

/** The generic form of a notification with a string `type` this SDK does not know; undefined for anything else. */
export function toGenericEvent(params: unknown): GenericEvent | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const payload = params as Record<string, unknown>;
  const type = payload.type;
  if (typeof type !== 'string' || type === '' || KNOWN_EVENT_TYPES.has(type)) return undefined;
  return {
    type: 'generic',
    eventType: type,
    ...(typeof payload.sessionId === 'string' ? { sessionId: payload.sessionId } : {}),
    ...(typeof payload.runId === 'string' ? { runId: payload.runId } : {}),
    payload,
  };
}
