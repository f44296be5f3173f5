/**
 * The stub MCP server (mcp-stub-core.ts) over the library's stdio transport. `--crash` writes a few stderr lines and
 * exits with code 3 before answering anything (a server that fails to start); `--crash-after-call` exits with code 7
 * during the first tools/call (a server that dies); `--bad-tool-list` lists a tool whose inputSchema is not an object. Run with: node --require <tsx/cjs> mcp-stdio-server.ts [flags]
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createStubServer, newStubState } from './mcp-stub-core';

const flags = new Set(process.argv.slice(2));

if (flags.has('--crash')) {
  process.stderr.write('stub: starting\nstub: fatal: the database file is missing\n');
  process.exit(3);
}

const server = createStubServer(newStubState(), {
  badToolList: flags.has('--bad-tool-list'),
  beforeCall: () => {
    if (!flags.has('--crash-after-call')) return;
    process.stderr.write('stub: segfault while calling a tool\n');
    process.exit(7);
  },
});
process.stderr.write('stub: ready on stdio\n');
void server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
