/**
 * A small MCP server for tests, written to the protocol (2025-06-18 with 2024-11-05 accepted): initialize, tools/list
 * (paged two tools a page, so clients must follow nextCursor), tools/call, ping, notifications/tools/list_changed.
 * Transports wrap it: stdio (mcp-stdio-server.ts) and Streamable HTTP / HTTP+SSE (mcp-http-server.ts).
 *
 * Tools: echo {text}; slow {ms}; big {chars}; fail; env {name}; add_tool (adds `later` and announces the change);
 * weird.name (a name providers refuse); bad_schema (an inputSchema that is not an object schema).
 */

export type Message = Record<string, unknown>;

interface StubTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

const obj = (properties: Record<string, unknown> = {}) => ({ type: 'object', properties });

export class McpStubCore {
  readonly tools: StubTool[] = [
    { name: 'echo', description: 'Echo the text back', inputSchema: obj({ text: { type: 'string' } }) },
    { name: 'slow', description: 'Answer after ms milliseconds', inputSchema: obj({ ms: { type: 'number' } }) },
    { name: 'big', description: 'A long text of chars characters', inputSchema: obj({ chars: { type: 'number' } }) },
    { name: 'fail', description: 'Always reports an error', inputSchema: obj() },
    { name: 'env', description: 'The value of an environment variable of the server', inputSchema: obj({ name: { type: 'string' } }) },
    { name: 'add_tool', description: 'Adds the tool "later" and announces the change', inputSchema: obj() },
    { name: 'weird.name', description: 'A tool whose name has a dot', inputSchema: obj() },
    { name: 'bad_schema', description: 'Its schema is not an object schema', inputSchema: { type: 'string' } },
  ];
  readonly calls: Array<{ name: string; args: unknown }> = [];
  readonly cancelled: unknown[] = [];
  initialized = false;

  /** `send` delivers a message the server originates (a notification) to the client. */
  constructor(private readonly notify: (m: Message) => void) {}

  /** The answer to one client message, or undefined for a notification. */
  async handle(m: Message): Promise<Message | undefined> {
    const id = m.id;
    const method = String(m.method ?? '');
    const params = (m.params ?? {}) as Record<string, unknown>;
    if (id === undefined) {
      if (method === 'notifications/initialized') this.initialized = true;
      if (method === 'notifications/cancelled') this.cancelled.push(params.requestId);
      return undefined;
    }
    const ok = (result: unknown): Message => ({ jsonrpc: '2.0', id, result });
    switch (method) {
      case 'initialize': {
        const asked = String(params.protocolVersion ?? '');
        const version = ['2025-06-18', '2025-03-26', '2024-11-05'].includes(asked) ? asked : '2025-06-18';
        return ok({ protocolVersion: version, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'mcp-stub', version: '1.0.0' } });
      }
      case 'ping':
        return ok({});
      case 'tools/list': {
        const start = params.cursor === undefined ? 0 : Number(params.cursor);
        const page = this.tools.slice(start, start + 2);
        const next = start + 2 < this.tools.length ? { nextCursor: String(start + 2) } : {};
        return ok({ tools: page, ...next });
      }
      case 'tools/call':
        return ok(await this.call(String(params.name), params.arguments ?? {}));
      default:
        return { jsonrpc: '2.0', id, error: { code: -32601, message: `method not found: ${method}` } };
    }
  }

  private async call(name: string, args: unknown): Promise<Record<string, unknown>> {
    this.calls.push({ name, args });
    const a = (args ?? {}) as Record<string, unknown>;
    const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
    switch (name) {
      case 'echo':
        return text(`echo: ${String(a.text)}`);
      case 'slow':
        await new Promise((r) => setTimeout(r, Number(a.ms ?? 0)));
        return text('slow done');
      case 'big': {
        const n = Number(a.chars ?? 0);
        return text(`BEGIN-${'x'.repeat(Math.max(0, n - 10))}-END`);
      }
      case 'fail':
        return { content: [{ type: 'text', text: 'the stub failed on purpose' }], isError: true };
      case 'env':
        return text(`${String(a.name)}=${process.env[String(a.name)] ?? '(unset)'}`);
      case 'add_tool':
        if (!this.tools.some((t) => t.name === 'later')) {
          this.tools.push({ name: 'later', description: 'Added after the start', inputSchema: obj() });
        }
        setTimeout(() => this.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }), 10);
        return text('added the tool "later"');
      case 'later':
        return text('later tool ran');
      default:
        return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
    }
  }
}
