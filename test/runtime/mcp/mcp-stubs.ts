/** How tests start the stub MCP servers of test/stubs (stdio through tsx, HTTP in process). */
import path from 'node:path';

export const STDIO_STUB = path.resolve(__dirname, '../../stubs/mcp-stdio-server.ts');
const TSX_CJS = require.resolve('tsx/cjs');

/** The `mcpServers` entry that starts the stdio stub with `flags`. */
export function stdioStubServer(flags: string[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: ['--require', TSX_CJS, STDIO_STUB, ...flags], ...extra };
}
