/**
 * The MCP server of the tests, built with the MCP library's server side (`McpServer`); transports wrap it: stdio
 * (mcp-stdio-server.ts), Streamable HTTP and the older HTTP+SSE (mcp-http-server.ts). Its tools/list answers two tools
 * a page (clients must follow nextCursor).
 *
 * Tools: echo {text}; slow {ms} (notes a cancellation); big {chars}; fail; env {name}; add_tool (registers `later`
 * after the connection, which announces tools/list_changed); weird.name (a name providers refuse); bad_schema (an
 * inputSchema nested too deep for a model). `badToolList` replaces the list with one the MCP schema refuses.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** What the servers of one stub saw, shared by its sessions. */
export interface StubState {
  calls: Array<{ name: string; args: unknown }>;
  /** The ids of requests the client cancelled (a timeout or an abort). */
  cancelled: unknown[];
}

export const newStubState = (): StubState => ({ calls: [], cancelled: [] });

const PAGE = 2;

type ListHandler = (request: z.infer<typeof ListToolsRequestSchema>, extra: unknown) => Promise<ListToolsResult> | ListToolsResult;

/** Makes the server's tools/list answer in pages: the library's handler gives every tool, this one a page of them. */
function pageToolLists(mcp: McpServer): void {
  const server = mcp.server;
  const set = server.setRequestHandler.bind(server) as (schema: unknown, handler: ListHandler) => void;
  (server as unknown as { setRequestHandler: typeof set }).setRequestHandler = (schema, handler) => {
    if (schema !== ListToolsRequestSchema) return set(schema, handler);
    set(schema, async (request, extra) => {
      const all = await handler({ ...request, params: {} }, extra);
      const start = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
      const next = start + PAGE < all.tools.length ? { nextCursor: String(start + PAGE) } : {};
      return { tools: all.tools.slice(start, start + PAGE), ...next };
    });
  };
}

/** A schema nested `depth` objects deep. */
function nested(depth: number): z.ZodType {
  return depth === 0 ? z.string() : z.object({ inner: nested(depth - 1) });
}

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

export interface StubOptions {
  /** Runs before every tool call (a server that crashes during one). */
  beforeCall?: () => void;
  /** tools/list also names a tool whose inputSchema is not an object schema (against the MCP schema). */
  badToolList?: boolean;
}

export function createStubServer(state: StubState, opts: StubOptions = {}): McpServer {
  const mcp = new McpServer({ name: 'mcp-stub', version: '1.0.0' });
  pageToolLists(mcp);
  const note = (name: string, args: unknown) => {
    state.calls.push({ name, args });
    opts.beforeCall?.();
  };
  mcp.registerTool('echo', { description: 'Echo the text back', inputSchema: { text: z.string() } }, ({ text: t }) => {
    note('echo', { text: t });
    return text(`echo: ${t}`);
  });
  mcp.registerTool('slow', { description: 'Answer after ms milliseconds', inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    note('slow', { ms });
    extra.signal.addEventListener('abort', () => state.cancelled.push(extra.requestId), { once: true });
    await new Promise((r) => setTimeout(r, ms));
    return text('slow done');
  });
  mcp.registerTool('big', { description: 'A long text of chars characters', inputSchema: { chars: z.number() } }, ({ chars }) => {
    note('big', { chars });
    return text(`BEGIN-${'x'.repeat(Math.max(0, chars - 10))}-END`);
  });
  mcp.registerTool('fail', { description: 'Always reports an error' }, () => {
    note('fail', {});
    return { ...text('the stub failed on purpose'), isError: true };
  });
  mcp.registerTool('env', { description: 'The value of an environment variable of the server', inputSchema: { name: z.string() } }, ({ name }) => {
    note('env', { name });
    return text(`${name}=${process.env[name] ?? '(unset)'}`);
  });
  mcp.registerTool('add_tool', { description: 'Adds the tool "later" and announces the change' }, () => {
    note('add_tool', {});
    // Registering a tool on a connected server sends notifications/tools/list_changed.
    setTimeout(() => {
      mcp.registerTool('later', { description: 'Added after the start' }, () => {
        note('later', {});
        return text('later tool ran');
      });
    }, 10);
    return text('added the tool "later"');
  });
  mcp.registerTool('weird.name', { description: 'A tool whose name has a dot' }, () => text('weird'));
  mcp.registerTool('bad_schema', { description: 'Its schema is nested too deep', inputSchema: { deep: nested(40) } }, () => text('bad'));
  if (opts.badToolList) {
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'scalar', inputSchema: { type: 'string' } }] }) as unknown as ListToolsResult);
  }
  return mcp;
}
