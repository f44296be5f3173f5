import { AgentEvent, EVENT_NOTIFICATION } from '../protocol/events';

/**
 * A notification whose `type` this SDK does not know, e.g. `learning_update` from a newer runtime (spec 001 §6:
 * "Unknown notifications fall back to a generic form"). Its fields are not validated; match on `eventType` and read
 * `payload`. Events of known types are always validated and never arrive in this form.
 */
export interface GenericEvent {
  readonly type: 'generic';
  /** The runtime's event type as sent, e.g. `learning_update`; for another notification method, that method. */
  readonly eventType: string;
  /** The JSON-RPC notification method that carried it: `event`, or a method this SDK does not know. */
  readonly method: string;
  readonly sessionId?: string;
  /** Present when the notification named a run; a run's stream carries its own generic events and run-less ones. */
  readonly runId?: string;
  /** The whole notification as received, `type` included. */
  readonly payload: Readonly<Record<string, unknown>>;
}

/** What a run's stream, `streamPrompt` and `RunResult.events` carry: the protocol's events, or the generic form. */
export type SdkEvent = AgentEvent | GenericEvent;

/** Every event type of the protocol this SDK was built with. */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(AgentEvent.options.map((o) => o.unwrap().shape.type.value));

/** The generic form of an `event` with a string `type` this SDK does not know; undefined for anything else. */
export function toGenericEvent(params: unknown): GenericEvent | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const type = (params as Record<string, unknown>).type;
  if (typeof type !== 'string' || type === '' || KNOWN_EVENT_TYPES.has(type)) return undefined;
  return generic(type, EVENT_NOTIFICATION, params as Record<string, unknown>);
}

/**
 * The generic form of a notification sent with a JSON-RPC method this SDK does not know (a newer runtime's own
 * notification); `payload` is its params object, or `{ params }` when they are not an object.
 */
export function notificationAsGenericEvent(method: string, params: unknown): GenericEvent {
  const payload = typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : { params };
  return generic(method, method, payload);
}

function generic(eventType: string, method: string, payload: Record<string, unknown>): GenericEvent {
  return {
    type: 'generic',
    eventType,
    method,
    ...(typeof payload.sessionId === 'string' ? { sessionId: payload.sessionId } : {}),
    ...(typeof payload.runId === 'string' ? { runId: payload.runId } : {}),
    payload,
  };
}
