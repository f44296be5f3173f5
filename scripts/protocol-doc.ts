// Generates docs/protocol.md from the protocol's zod schemas. `npm run docs:protocol` writes it;
// test/protocol/protocol-doc.test.ts fails when the committed file is out of date.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AgentEvent, EVENT_NOTIFICATION, MAX_CHANGE_CONTENTS_BYTES, MAX_EDITOR_SCHEMA_BYTES, MAX_EDITOR_SCHEMA_DEPTH, methods, PROTOCOL_VERSION, RpcErrorCode, EventErrorCodes } from '../src/protocol';
import { MAX_PARAMS_DEPTH } from '../src/protocol/transport';

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
    `Request params may nest objects and arrays at most ${MAX_PARAMS_DEPTH} levels deep (\`params\` itself is level 1); deeper params are refused`,
    'with -32602 before validation, naming the path where the limit was crossed (e.g. `params.tools[0].inputSchema.properties.a…`).',
    `\`setEditorMcpTools\` also refuses (-32602) an \`inputSchema\` without \`"type": "object"\` at the top, nested more than ${MAX_EDITOR_SCHEMA_DEPTH} levels,`,
    `or over ${MAX_EDITOR_SCHEMA_BYTES / 1024} KiB as JSON (the schema goes to the model with every request); the tools registered before stay.`,
    '',
    'Change batch events carry summaries, never file contents: `change_batch_updated` only the entries that changed,',
    '`change_batch_ready` the whole batch once. Fetch both sides of a change with `getChangeContents` when a diff is shown; one',
    `answer carries at most ${MAX_CHANGE_CONTENTS_BYTES / 1024 / 1024} MiB of contents and lists the ids left out in \`omitted\`. Each change has a \`revision\` that grows`,
    'when its proposed content changes, so contents held for an older revision are known to be outdated.',
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
    const type = (option.unwrap().shape.type as z.ZodLiteral<string>).value;
    out.push(`### \`${type}\``, '', schemaBlock(option), '');
  }
  return out.join('\n');
}

export const PROTOCOL_DOC_PATH = path.resolve(__dirname, '..', 'docs', 'protocol.md');

if (require.main === module) {
  writeFileSync(PROTOCOL_DOC_PATH, renderProtocolDoc());
  console.log(`wrote ${PROTOCOL_DOC_PATH}`);
}
