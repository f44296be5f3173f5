// Generates docs/protocol.md from the protocol's zod schemas. `npm run docs:protocol` writes it;
// test/protocol/protocol-doc.test.ts fails when the committed file is out of date.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AgentEvent, EVENT_NOTIFICATION, methods, PROTOCOL_VERSION, RpcErrorCode, EventErrorCodes } from '../src/protocol';

function schemaBlock(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return '```json\n' + JSON.stringify(json, null, 2) + '\n```';
}

export function renderProtocolDoc(): string {
  const out: string[] = [];
  out.push(`# agentcli wire protocol ${PROTOCOL_VERSION}`, '');
  out.push('Generated from `src/protocol/` by `npm run docs:protocol`; a test fails when this file is stale.', '');
  out.push('## Transport', '');
  out.push(
    'JSON-RPC 2.0, one JSON message per line (newline-delimited JSON) on the runtime\'s stdin/stdout; stderr carries logs only.',
    'Start the runtime with `agentcli --mode rpc`. The host must call `initialize` first; hosts and runtimes are compatible when',
    'the major protocol versions match. Lines over 16 MiB are discarded and answered with -32600. Batch (array) messages are not supported.',
    '',
    `Runtime → host traffic is one notification, \`${EVENT_NOTIFICATION}\`, whose params are an event (below), discriminated on \`type\`.`,
    'Requests the runtime needs answered (permission, directory access, step decision, editor tool call) are events carrying a',
    'request id; the host answers with the matching method. Aborting a run cancels them and emits `permission_resolved` /',
    '`directory_access_resolved` with outcome `cancelled`.',
    '',
  );
  out.push('## Error codes', '', '| code | name |', '|---|---|');
  for (const [name, code] of Object.entries(RpcErrorCode)) out.push(`| ${code} | ${name} |`);
  out.push('', `Error events carry \`code\` from: ${EventErrorCodes.map((c) => `\`${c}\``).join(', ')}.`, '');
  out.push('## Methods (host → runtime)', '');
  for (const [name, def] of Object.entries(methods)) {
    out.push(`### \`${name}\``, '', 'Params:', '', schemaBlock(def.params), '', 'Result:', '', schemaBlock(def.result), '');
  }
  out.push('## Events (runtime → host)', '');
  for (const option of AgentEvent.options) {
    const type = (option.shape.type as z.ZodLiteral<string>).value;
    out.push(`### \`${type}\``, '', schemaBlock(option), '');
  }
  return out.join('\n');
}

export const PROTOCOL_DOC_PATH = path.resolve(__dirname, '..', 'docs', 'protocol.md');

if (require.main === module) {
  writeFileSync(PROTOCOL_DOC_PATH, renderProtocolDoc());
  console.log(`wrote ${PROTOCOL_DOC_PATH}`);
}
