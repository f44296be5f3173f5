/**
 * One connection to one MCP server: the initialize handshake, the server's tool list (all pages), tool calls, and the
 * `notifications/tools/list_changed` notification.
 */
import { RUNTIME_VERSION } from '../version';
import { JsonRpcPeer, McpRequestError } from './json-rpc-peer';
import type { McpTransport } from './transport';

/** Protocol versions this client speaks, newest first (the first is asked for). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** The most tool-list pages read from one server (a server paging forever must not hang the connection). */
const MAX_TOOL_PAGES = 50;

export interface ServerTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

export interface CallResult {
  content: unknown[];
  isError: boolean;
  structuredContent?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class McpClient {
  private readonly peer: JsonRpcPeer;
  serverName = '';
  serverVersion = '';
  protocolVersion = '';
  private toolsChangedHandler: () => void = () => undefined;

  constructor(readonly transport: McpTransport) {
    this.peer = new JsonRpcPeer((m) => transport.send(m));
    this.peer.onNotification('notifications/tools/list_changed', () => this.toolsChangedHandler());
  }

  onToolsChanged(handler: () => void): void {
    this.toolsChangedHandler = handler;
  }

  /** Starts the transport and completes the handshake; `onClose` hears of a connection that ends later. */
  async connect(timeoutMs: number, onClose: (error: Error) => void): Promise<void> {
    await this.transport.start(
      (m) => this.peer.handle(m),
      (e) => {
        this.peer.close(e);
        onClose(e);
      },
    );
    const result = await this.peer.request(
      'initialize',
      { protocolVersion: SUPPORTED_PROTOCOL_VERSIONS[0], capabilities: {}, clientInfo: { name: 'agentcli', version: RUNTIME_VERSION } },
      { timeoutMs },
    );
    if (!isObject(result) || typeof result.protocolVersion !== 'string') throw new Error('the server answered initialize without a protocolVersion');
    if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(result.protocolVersion)) {
      throw new Error(`the server speaks MCP ${result.protocolVersion}; this client speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
    }
    this.protocolVersion = result.protocolVersion;
    const info = isObject(result.serverInfo) ? result.serverInfo : {};
    this.serverName = typeof info.name === 'string' ? info.name : '';
    this.serverVersion = typeof info.version === 'string' ? info.version : '';
    const caps = isObject(result.capabilities) ? result.capabilities : {};
    if (!isObject(caps.tools)) throw new Error('the server offers no tools (its initialize answer has no "tools" capability)');
    this.transport.initialized?.(this.protocolVersion);
    await this.peer.notify('notifications/initialized');
  }

  async listTools(timeoutMs: number): Promise<ServerTool[]> {
    const tools: ServerTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await this.peer.request('tools/list', cursor === undefined ? {} : { cursor }, { timeoutMs });
      if (!isObject(result) || !Array.isArray(result.tools)) throw new Error('the server answered tools/list without a "tools" array');
      for (const t of result.tools) {
        if (!isObject(t) || typeof t.name !== 'string') continue;
        tools.push({ name: t.name, description: typeof t.description === 'string' ? t.description : '', inputSchema: t.inputSchema });
      }
      cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (cursor === undefined) return tools;
    }
    throw new Error(`the server's tool list did not end after ${MAX_TOOL_PAGES} pages`);
  }

  async callTool(name: string, args: unknown, timeoutMs: number, signal: AbortSignal): Promise<CallResult> {
    const result = await this.peer.request('tools/call', { name, arguments: args }, { timeoutMs, signal });
    if (!isObject(result)) throw new McpRequestError('the server answered tools/call with no result object');
    return {
      content: Array.isArray(result.content) ? result.content : [],
      isError: result.isError === true,
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    };
  }

  async close(): Promise<void> {
    this.peer.close(new Error('the connection was closed'));
    await this.transport.close();
  }
}
