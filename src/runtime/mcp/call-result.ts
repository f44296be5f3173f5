/**
 * What the model sees of an MCP tool's result: text as is, other content named with its size (the model cannot use
 * base64 images or blobs as text), and a result over the output cap cut head+tail with the whole of it saved where
 * read_file can reach it, as for command output.
 */
import { HEAD_CHARS, OutputCapture, TAIL_CHARS } from '../tools/output-capture';
import type { SecretMasker } from '../secrets/masker';
import type { CallResult } from './client';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describeItem(item: unknown): string {
  if (!isObject(item)) return JSON.stringify(item);
  const size = (data: unknown) => (typeof data === 'string' ? `${Math.floor((data.length * 3) / 4)} bytes` : 'no data');
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : '';
    case 'image':
    case 'audio':
      return `[${item.type} ${typeof item.mimeType === 'string' ? item.mimeType : ''}, ${size(item.data)}, not shown]`;
    case 'resource': {
      const r = isObject(item.resource) ? item.resource : {};
      const uri = typeof r.uri === 'string' ? r.uri : '';
      if (typeof r.text === 'string') return uri ? `[resource ${uri}]\n${r.text}` : r.text;
      return `[resource ${uri}${typeof r.mimeType === 'string' ? ` (${r.mimeType})` : ''}, ${size(r.blob)}, not shown]`;
    }
    case 'resource_link':
      return `[resource link ${typeof item.uri === 'string' ? item.uri : ''}${typeof item.name === 'string' ? ` "${item.name}"` : ''}]`;
    default:
      return JSON.stringify(item);
  }
}

/** The result as one text: content items joined, or the structured content when there is no content. */
export function resultText(result: CallResult): string {
  if (result.content.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent, null, 2);
  return result.content.map(describeItem).join('\n');
}

/** The text capped for the model; a longer one is saved whole (secrets masked) in `outputDir`. */
export async function capOutput(text: string, outputDir: string, toolCallId: string, secrets: SecretMasker | undefined): Promise<string> {
  if (text.length <= HEAD_CHARS + TAIL_CHARS) return text;
  const capture = await OutputCapture.create(outputDir, toolCallId);
  capture.append(secrets ? secrets.mask(text) : text);
  return capture.finish();
}
