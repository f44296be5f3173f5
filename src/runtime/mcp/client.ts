/**
 * One connection to one MCP server through the MCP library's `Client`: the handshake, the server's tool list (every
 * page), tool calls with a timeout and cancellation, and `notifications/tools/list_changed`. Library errors are turned
 * into this runtime's: a timeout, a connection that is gone (restart the server), or the server's own error.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { RUNTIME_VERSION } from '../version';
import type { OpenedTransport } from './sdk-transports';

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

/** A call that got no answer in time (the server was told to cancel it). */
export class McpTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} got no answer within ${ms} ms`);
    this.name = 'McpTimeoutError';
  }
}

/** The connection is gone (the process exited, the HTTP server went away or ended the session): restart it. */
export class McpConnectionLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpConnectionLostError';
  }
}

/** A schema error of the library as `tools[0].inputSchema.type: message; ...` (the first few). */
function schemaIssues(e: Error): string {
  const issues = (e as { issues?: Array<{ path?: PropertyKey[]; message?: string }> }).issues;
  if (!Array.isArray(issues)) return e.message.slice(0, 500);
  const where = (p: PropertyKey[] = []) => p.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('');
  return issues
    .slice(0, 3)
    .map((i) => `${where(i.path)}: ${i.message ?? 'invalid'}`)
    .join('; ');
}

export class McpClient {
  private readonly client = new Client({ name: 'agentcli', version: RUNTIME_VERSION }, { capabilities: {} });
  private toolsChangedHandler: () => void = () => undefined;
  private closed = false;

  constructor(readonly opened: OpenedTransport) {
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.toolsChangedHandler());
    this.client.onerror = (e) => opened.noteError(e);
  }

  get serverName(): string {
    return this.client.getServerVersion()?.name ?? '';
  }

  onToolsChanged(handler: () => void): void {
    this.toolsChangedHandler = handler;
  }

  /** The handshake; `onClose` hears of a connection that ends later (not of one closed by `close`). */
  async connect(timeoutMs: number, onClose: (error: Error) => void): Promise<void> {
    try {
      await this.client.connect(this.opened.transport, { timeout: timeoutMs });
    } catch (e) {
      throw this.translate(e, 'the handshake (initialize)', timeoutMs);
    }
    if (!this.client.getServerCapabilities()?.tools) throw new Error('the server offers no tools (its initialize answer has no "tools" capability)');
    this.client.onclose = () => {
      if (!this.closed) onClose(new McpConnectionLostError(this.opened.closeReason()));
    };
  }

  async listTools(timeoutMs: number): Promise<ServerTool[]> {
    const tools: ServerTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      let result: Awaited<ReturnType<Client['listTools']>>;
      try {
        result = await this.client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
      } catch (e) {
        throw this.translate(e, 'tools/list', timeoutMs);
      }
      for (const t of result.tools) tools.push({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema });
      cursor = result.nextCursor ? result.nextCursor : undefined;
      if (cursor === undefined) return tools;
    }
    throw new Error(`the server's tool list did not end after ${MAX_TOOL_PAGES} pages`);
  }

  async callTool(name: string, args: unknown, timeoutMs: number, signal: AbortSignal): Promise<CallResult> {
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await this.client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, { timeout: timeoutMs, signal });
    } catch (e) {
      if (signal.aborted) throw new Error(`${name} was cancelled`, { cause: e });
      throw this.translate(e, name, timeoutMs);
    }
    return {
      content: Array.isArray(result.content) ? result.content : [],
      isError: result.isError === true,
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    };
  }

  /** A library error as this runtime's: a timeout, a lost connection, or the server's answer (kept as it is). */
  private translate(e: unknown, what: string, timeoutMs: number): Error {
    if (e instanceof McpError && e.code === (ErrorCode.RequestTimeout as number)) return new McpTimeoutError(what, timeoutMs);
    if (e instanceof McpError && e.code === (ErrorCode.ConnectionClosed as number)) return new McpConnectionLostError(this.opened.closeReason());
    if (e instanceof StreamableHTTPError && e.code === 404 && what !== 'the handshake (initialize)') {
      return new McpConnectionLostError('the server ended the session (HTTP 404)');
    }
    if (e instanceof McpError || e instanceof StreamableHTTPError) return e;
    if (e instanceof Error && /ZodError/.test(e.name)) return new Error(`the server's answer to ${what} does not follow the MCP schema: ${schemaIssues(e)}`);
    // A transport failure (cannot reach the server, a refused redirect, an oversized answer): the connection is gone.
    return new McpConnectionLostError(e instanceof Error ? e.message : String(e));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client.close();
  }
}
