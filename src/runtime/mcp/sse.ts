/** Server-sent events read from a fetch body: `event` and `data` fields, dispatched at each blank line. */
import { MAX_MESSAGE_BYTES } from './transport';

export interface SseEvent {
  event: string;
  data: string;
}

export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (e: SseEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let dataBytes = 0;
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      dataBytes = 0;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') {
      dataBytes += value.length;
      if (dataBytes > MAX_MESSAGE_BYTES) throw new Error(`the server sent an event over ${MAX_MESSAGE_BYTES} bytes`);
      data.push(value);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) !== -1) {
        const sep = buffer.startsWith('\r\n', nl) ? 2 : 1;
        line(buffer.slice(0, nl));
        buffer = buffer.slice(nl + sep);
      }
      if (buffer.length > MAX_MESSAGE_BYTES) throw new Error(`the server sent a line over ${MAX_MESSAGE_BYTES} bytes`);
    }
    if (buffer !== '') line(buffer);
    line('');
  } finally {
    reader.releaseLock();
  }
}
