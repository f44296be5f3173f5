import type { ChatToolSpec } from '../providers/types';
import type { Config } from '../config/schema';
import type { McpTools } from '../mcp/mcp-tools';
import { MCP_FIRST_CONNECT_WAIT_MS, configureMcp } from '../mcp/session-mcp';
import { buildToolsRegistry, createCoreTools, toChatToolSpec } from '../tools/registry';
import type { ToolDefinition } from '../tools/types';
import type { EditorTools } from './editor-tools';

/** The tools a session offers the model: the built-in ones, the editor's (`setEditorMcpTools`) and the MCP servers'. */
export class SessionTools {
  private core: ToolDefinition[];
  /** The configured MCP servers' tools (undefined while none is configured). */
  private mcp: McpTools | undefined;

  constructor(
    private readonly editor: EditorTools,
    config: Config,
    private readonly opts: { cwd: string; changed: (reason: string, failure?: boolean) => void },
  ) {
    this.core = createCoreTools({ commandTimeoutMs: config.commandTimeoutMs });
  }

  /** New built-in tools for new settings (the command timeout). */
  configureCore(config: Config): void {
    this.core = createCoreTools({ commandTimeoutMs: config.commandTimeoutMs });
  }

  /** Applies `config.mcpServers` (starting the servers' manager on the first one). */
  configureMcp(config: Config): void {
    this.mcp = configureMcp(this.mcp, config, { cwd: this.opts.cwd, env: process.env, changed: (reason, failure) => this.opts.changed(reason, failure) });
  }

  /** Every tool the model can be offered now, with the MCP servers' states (`getToolsRegistry`). */
  registry(planMode: boolean, restricted: boolean) {
    return {
      tools: buildToolsRegistry({ core: this.core, editor: this.editor.specs(), mcp: this.mcp?.registry() ?? [], planMode, restricted }),
      servers: this.mcp?.statuses() ?? [],
    };
  }

  /** The names of the tools offered now (`tools_changed`). */
  names(): string[] {
    return [...this.core.map((t) => t.name), ...this.editor.specs().map((t) => t.name), ...(this.mcp?.specs().map((t) => t.name) ?? [])];
  }

  /** A run's tools and their specs for the model: all of them and `extra`, those `keep` keeps. */
  forRun(keep: (name: string) => boolean, extra: ToolDefinition[]): { tools: Map<string, ToolDefinition>; specs: ChatToolSpec[] } {
    const tools = new Map<string, ToolDefinition>([...this.core, ...this.editor.definitions(), ...(this.mcp?.definitions() ?? []), ...extra].filter((t) => keep(t.name)).map((t) => [t.name, t]));
    const specs = [...this.core.map(toChatToolSpec), ...this.editor.specs(), ...(this.mcp?.specs() ?? []), ...extra.map(toChatToolSpec)].filter((t) => keep(t.name));
    return { tools, specs };
  }

  /** Waits (boundedly) for servers just started, so they join the run about to start (agentcli -p). */
  firstConnections(): Promise<void> | undefined {
    return this.mcp?.firstConnections(MCP_FIRST_CONNECT_WAIT_MS);
  }

  /** Stops the MCP servers. */
  close(): void {
    void this.mcp?.close();
    this.mcp = undefined;
  }
}
