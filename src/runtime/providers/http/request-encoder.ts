/**
 * Encodes a chat request body to UTF-8 bytes, keeping each history message's encoded JSON beside the message. A long
 * run resends the whole history on every turn; with this, a turn encodes only the messages that are new, and the rest
 * is a copy of bytes already made. (Encoding the whole body as one string costs a few milliseconds per turn at a few
 * hundred kilobytes: stringify, then the HTTP layer measuring and encoding the string again.)
 *
 * History messages are never changed in place (the run appends new ones; compaction splices in new objects), so a
 * message object always encodes the same, given the same `context` (what else its wire form depends on, such as the
 * name of the call a tool result answers, which an earlier message holds).
 */
import type { HistoryMessage } from '../../../protocol';

/** How a provider writes history messages. */
export interface MessageWireFormat {
  /** The message's wire form (a JSON value); `index` is its place in the history, for error messages. */
  toWire(message: HistoryMessage, index: number, context: string | undefined): unknown;
  /**
   * For a format whose message forms depend on earlier messages: a reader given every message in order, returning
   * what the message's form depends on beyond itself. Bytes made under another context are not reused.
   */
  contextReader?(): (message: HistoryMessage) => string | undefined;
}

const MESSAGES_OPEN = Buffer.from('{"messages":[');
const COMMA = Buffer.from(',');

interface Encoded {
  bytes: Buffer;
  context: string | undefined;
}

export class RequestEncoder {
  private readonly encoded = new WeakMap<HistoryMessage, Encoded>();

  constructor(private readonly format: MessageWireFormat) {}

  /**
   * `{"messages":[…], …fields}` as bytes: the same JSON value as `JSON.stringify({ ...fields, messages })` (only the
   * key order differs). A `messages` key in `fields` is left out: the history is the messages.
   */
  encode(fields: object, messages: readonly HistoryMessage[]): Buffer {
    const contextOf = this.format.contextReader?.();
    const parts: Buffer[] = [MESSAGES_OPEN];
    messages.forEach((m, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(this.message(m, index, contextOf?.(m)));
    });
    const rest = JSON.stringify({ ...fields, messages: undefined });
    parts.push(Buffer.from(rest === '{}' ? ']}' : `],${rest.slice(1)}`));
    return Buffer.concat(parts);
  }

  private message(m: HistoryMessage, index: number, context: string | undefined): Buffer {
    let known = this.encoded.get(m);
    if (!known || known.context !== context) {
      known = { bytes: Buffer.from(JSON.stringify(this.format.toWire(m, index, context))), context };
      this.encoded.set(m, known);
    }
    return known.bytes;
  }
}
