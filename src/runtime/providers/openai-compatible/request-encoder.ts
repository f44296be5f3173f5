/**
 * Encodes a chat-completions request body to UTF-8 bytes, keeping each history message's encoded JSON beside the
 * message. A long run resends the whole history on every turn; with this, a turn encodes only the messages that are
 * new, and the rest is a copy of bytes already made. (Encoding the whole body as one string costs a few milliseconds
 * per turn at a few hundred kilobytes: stringify, then the fetch layer measuring and encoding the string again.)
 *
 * History messages are never changed in place (the run appends new ones; compaction splices in new objects), so a
 * message object always encodes the same.
 */
import type { HistoryMessage } from '../../../protocol';
import { toWireMessage } from './wire';

const MESSAGES_OPEN = Buffer.from('{"messages":[');
const COMMA = Buffer.from(',');

export class RequestEncoder {
  private readonly encoded = new WeakMap<HistoryMessage, Buffer>();

  /**
   * `{"messages":[…], …fields}` as bytes: the same JSON value as `JSON.stringify({ ...fields, messages })` (only the
   * key order differs). A `messages` key in `fields` is left out: the history is the messages.
   */
  encode(fields: Record<string, unknown>, messages: readonly HistoryMessage[]): Buffer {
    const parts: Buffer[] = [MESSAGES_OPEN];
    messages.forEach((m, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(this.message(m, index));
    });
    const rest = JSON.stringify({ ...fields, messages: undefined });
    parts.push(Buffer.from(rest === '{}' ? ']}' : `],${rest.slice(1)}`));
    return Buffer.concat(parts);
  }

  private message(m: HistoryMessage, index: number): Buffer {
    let bytes = this.encoded.get(m);
    if (!bytes) {
      bytes = Buffer.from(JSON.stringify(toWireMessage(m, index)));
      this.encoded.set(m, bytes);
    }
    return bytes;
  }
}
