/**
 * The tools of the configured MCP servers, as the session offers them: `mcp__<server>__<tool>` definitions that ask
 * permission by default (rules `Mcp(<server>:<tool>)`, `Mcp(<server>:*)`), call the server with a timeout, cap their
 * output, and registry entries with the servers' states. Loaded only when a server is configured.
 */
import * as z from '../../protocol/zod';
import type { ChatToolSpec } from '../providers/types';
import type { ShellEnvSettings } from '../secrets/command-env';
import type { ToolDefinition, ToolResult } from '../tools/types';
import { capOutput, resultText } from './call-result';
import { McpConnectionLostError, McpTimeoutError } from './client';
import type { McpServersConfig } from './server-config';
import { ServerConnection, type KnownTool } from './server-connection';
import type { TransportKind } from './transport';

export interface McpToolsOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The tool set or a server's state changed (`reason` names the server and what happened; `failure`: it failed). */
  changed(reason: string, failure?: boolean): void;
}

export interface McpServerStatusInfo {
  name: string;
  transport?: TransportKind;
  state: 'starting' | 'ready' | 'failed' | 'disabled';
  error?: string;
  stderrTail?: string;
  toolCount: number;
  restarts: number;
}

export interface McpRegistryEntry {
  name: string;
  server: string;
  description: string;
  inputSchema: Record<string, unknown>;
  permissionRule: string;
  enabled: boolean;
  disabledReason?: string;
}

export class McpTools {
  private readonly servers = new Map<string, ServerConnection>();

  constructor(private readonly opts: McpToolsOptions) {}

  /** Starts new servers, stops removed ones and restarts changed ones; unchanged servers keep running. */
  configure(servers: McpServersConfig, shellEnv: ShellEnvSettings): void {
    for (const [name, conn] of [...this.servers]) {
      const next = servers[name];
      if (next === undefined || JSON.stringify(next) !== JSON.stringify(conn.config) || JSON.stringify(shellEnv) !== this.shellKey) {
        this.servers.delete(name);
        void conn.stop();
        if (next === undefined) this.opts.changed(`MCP server "${name}" was removed`);
      }
    }
    this.shellKey = JSON.stringify(shellEnv);
    for (const [name, config] of Object.entries(servers)) {
      if (this.servers.has(name)) continue;
      const conn = new ServerConnection(name, config, { cwd: this.opts.cwd, env: this.opts.env, shellEnv, changed: (r, f) => this.opts.changed(r, f) });
      this.servers.set(name, conn);
      conn.start();
    }
  }

  private shellKey = '';

  /**
   * Waits, at most `ms`, for servers still in their first connection attempt (a run that starts right after the
   * session, as `agentcli -p` does, then sees their tools); a server that failed or restarts is never waited for.
   */
  async firstConnections(ms: number): Promise<void> {
    const pending = [...this.servers.values()].filter((c) => c.state === 'starting' && c.restarts === 0).map((c) => c.firstAttempt);
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(pending), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /** The tools the model is offered: every usable tool of every server that has listed its tools. */
  definitions(): ToolDefinition[] {
    return [...this.servers.values()].flatMap((conn) => conn.offered().map((t) => this.definition(conn, t)));
  }

  specs(): ChatToolSpec[] {
    return [...this.servers.values()].flatMap((conn) =>
      conn.offered().map((t) => ({ name: t.exposed, description: describe(conn.name, t), parameters: t.inputSchema })),
    );
  }

  statuses(): McpServerStatusInfo[] {
    return [...this.servers.values()].map((c) => ({
      name: c.name,
      ...(c.transportKind ? { transport: c.transportKind } : c.config.command !== undefined ? { transport: 'stdio' as const } : {}),
      state: c.state,
      ...(c.error ? { error: c.error } : {}),
      ...(c.stderrTail ? { stderrTail: c.stderrTail } : {}),
      toolCount: c.offered().length,
      restarts: c.restarts,
    }));
  }

  registry(): McpRegistryEntry[] {
    return [...this.servers.values()].flatMap((conn) =>
      conn.tools.map((t) => {
        const reason =
          t.problem !== undefined
            ? `not offered: ${t.problem}`
            : conn.state !== 'ready'
              ? `server "${conn.name}" is ${conn.state === 'starting' ? 'restarting' : `not running: ${conn.error ?? conn.state}`}`
              : undefined;
        return {
          name: t.exposed,
          server: conn.name,
          description: t.description,
          inputSchema: t.inputSchema,
          permissionRule: `Mcp(${conn.name}:${t.original})`,
          enabled: reason === undefined,
          ...(reason ? { disabledReason: reason } : {}),
        };
      }),
    );
  }

  async close(): Promise<void> {
    const all = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(all.map((c) => c.stop()));
  }

  private definition(conn: ServerConnection, tool: KnownTool): ToolDefinition {
    return {
      name: tool.exposed,
      description: describe(conn.name, tool),
      inputSchema: z.record(z.string(), z.unknown()),
      readOnly: false,
      permissionTarget: () => ({
        ruleTool: tool.exposed,
        suggestedRule: `Mcp(${conn.name}:${tool.original})`,
        description: `Call ${tool.original} on MCP server ${conn.name}`,
      }),
      run: (args, ctx) => this.call(conn, tool, args, ctx),
    };
  }

  private async call(conn: ServerConnection, tool: KnownTool, args: unknown, ctx: Parameters<ToolDefinition['run']>[1]): Promise<ToolResult> {
    const client = conn.client;
    if (conn.state !== 'ready' || !client) {
      const why =
        conn.state === 'starting'
          ? 'is still starting (it restarted); try again in a moment or use other tools'
          : `is not running (${conn.error ?? conn.state}); its tools are unavailable until it restarts`;
      return { output: `MCP server "${conn.name}" ${why}`, isError: true };
    }
    const timeoutMs = conn.config.timeoutMs;
    try {
      const result = await client.callTool(tool.original, args, timeoutMs, ctx.signal);
      const output = await capOutput(resultText(result), ctx.outputDir, ctx.toolCallId, ctx.secrets);
      if (result.isError) return { output: `MCP tool ${tool.original} (server ${conn.name}) reported an error: ${output}`, isError: true };
      return { output };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      if (e instanceof McpConnectionLostError) conn.lost(client, e);
      if (e instanceof McpTimeoutError) {
        return {
          output: `MCP tool ${tool.original} (server ${conn.name}) did not answer within ${timeoutMs} ms; the call was cancelled (mcpServers.${conn.name}.timeoutMs sets the limit)`,
          isError: true,
        };
      }
      return { output: `MCP tool ${tool.original} (server ${conn.name}) failed: ${(e as Error).message}`, isError: true };
    }
  }
}

function describe(server: string, tool: KnownTool): string {
  return tool.description ? `${tool.description} (MCP server ${server})` : `Tool ${tool.original} of MCP server ${server}`;
}
