/**
 * The stub MCP server (mcp-stub-core.ts) over stdio: one JSON-RPC message a line. `--crash` writes a few stderr lines
 * and exits with code 3 before answering anything (a server that fails to start); `--crash-after-call` exits during
 * the first tools/call (a server that dies). Run with: node --require <tsx/cjs> mcp-stdio-server.ts [flags]
 */
import { McpStubCore, type Message } from './mcp-stub-core';

const flags = new Set(process.argv.slice(2));

if (flags.has('--crash')) {
  process.stderr.write('stub: starting\nstub: fatal: the database file is missing\n');
  process.exit(3);
}

const write = (m: Message) => process.stdout.write(`${JSON.stringify(m)}\n`);
const core = new McpStubCore(write);
process.stderr.write('stub: ready on stdio\n');

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  let nl: number;
  while ((nl = buffer.indexOf('\n')) !== -1) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim() === '') continue;
    const message = JSON.parse(line) as Message;
    if (flags.has('--crash-after-call') && message.method === 'tools/call') {
      process.stderr.write('stub: segfault while calling a tool\n');
      process.exit(7);
    }
    void core.handle(message).then((answer) => answer && write(answer));
  }
});
process.stdin.on('end', () => process.exit(0));
