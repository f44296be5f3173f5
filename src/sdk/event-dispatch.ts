import { AgentEvent } from '../protocol/events';
import { InvalidEventError, errorText, toIssues } from './errors';
import { notificationAsGenericEvent, toGenericEvent, type GenericEvent } from './generic-event';
import type { Tracer } from './rpc-channel';

export type Listener<T> = (value: T) => void;

export function addListener<T>(set: Set<Listener<T>>, listener: Listener<T>): { dispose(): void } {
  set.add(listener);
  return { dispose: () => set.delete(listener) };
}

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}

/**
 * Validates each `event` notification with the protocol schema and hands it to the listeners. A notification whose
 * `type` this SDK does not know (a newer runtime) goes to the generic listeners in its generic form. An event of a
 * known type that breaks the schema is traced and reported as an `InvalidEventError` to the invalid-event listeners
 * (the runs in flight), so a malformed `agent_end` fails its run at once instead of at the silence timeout.
 */
export class EventDispatcher {
  readonly events = new Set<Listener<AgentEvent>>();
  readonly generic = new Set<Listener<GenericEvent>>();
  readonly invalid = new Set<Listener<InvalidEventError>>();

  dispatch(params: unknown, trace: Tracer | undefined): void {
    trace?.('recv', { event: params });
    const generic = toGenericEvent(params);
    if (generic) {
      this.notify(this.generic, generic, trace);
      return;
    }
    const parsed = AgentEvent.safeParse(params);
    if (!parsed.success) {
      const error = new InvalidEventError(stringField(params, 'type'), stringField(params, 'runId'), toIssues(parsed.error.issues));
      trace?.('recv', { invalidEvent: error.message });
      this.notify(this.invalid, error, trace);
      return;
    }
    this.notify(this.events, parsed.data, trace);
  }

  /** A notification with a method other than `event` (a newer runtime's): delivered in the generic form. */
  dispatchUnknownNotification(method: string, params: unknown, trace: Tracer | undefined): void {
    trace?.('recv', { notification: method, params });
    // `$/…` methods belong to JSON-RPC itself (cancellation, progress), not to the runtime's notifications.
    if (method.startsWith('$/')) return;
    this.notify(this.generic, notificationAsGenericEvent(method, params), trace);
  }

  private notify<T>(set: Set<Listener<T>>, value: T, trace: Tracer | undefined): void {
    for (const l of [...set]) {
      try {
        l(value);
      } catch (e) {
        trace?.('recv', { listenerError: errorText(e) });
      }
    }
  }
}
