/**
 * An ACP prompt (content blocks) as our run request: text blocks make the message, embedded text resources become
 * file context (their text goes to the model), resource links name a file the agent can read. Images, audio and binary
 * resources are not advertised in `promptCapabilities`, so they are refused with a message saying so.
 */
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { PromptContext } from '../../protocol';

export class UnsupportedContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedContentError';
  }
}

/** A resource URI as a path: file URLs become file paths, other URIs stay as they are. */
export function uriPath(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

export function promptToRun(blocks: ContentBlock[]): { message: string; context: PromptContext[] } {
  const text: string[] = [];
  const context: PromptContext[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        text.push(block.text);
        break;
      case 'resource': {
        const r = block.resource;
        if (!('text' in r)) {
          throw new UnsupportedContentError(`the embedded resource ${r.uri} is binary; agentcli takes text resources only (attach a text file)`);
        }
        context.push({ kind: 'file', path: uriPath(r.uri), text: r.text });
        break;
      }
      case 'resource_link':
        context.push({ kind: 'file', path: uriPath(block.uri) });
        break;
      default:
        throw new UnsupportedContentError(`${block.type} content is not supported (promptCapabilities says so); send text or text resources`);
    }
  }
  const message = text.join('\n').trim();
  if (message === '' && context.length === 0) throw new UnsupportedContentError('the prompt is empty: send at least one text block');
  return { message: message === '' ? 'See the attached files.' : message, context };
}
