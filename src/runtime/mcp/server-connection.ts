/**
 * One configured MCP server over its life: connected in the background (a turn never waits for it), its tools listed
 * and checked, the list refreshed on `tools/list_changed`, and a server that fails to start or dies reported with its
 * stderr tail and restarted with backoff. Its last known tools stay in the set while it restarts and answer the model
 * a clear error until it is back.
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { editorSchemaProblem } from '../agent/editor-tool-schema';
import type { ShellEnvSettings } from '../secrets/command-env';
import { McpClient, type ServerTool } from './client';
import { transportsFor, type OpenedTransport } from './sdk-transports';
import type { McpServerConfig } from './server-config';
import { exposedToolName, uniqueToolName } from './tool-names';
import { McpSettingsError, type TransportKind } from './transport';

export type ServerState = 'starting' | 'ready' | 'failed' | 'disabled';

/** Restarts in a row before the server is left failed (until the config changes); the count resets after a minute up. */
export const MAX_RESTARTS = 5;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
const STABLE_MS = 60_000;
/** The most tools taken from one server, and the longest description kept (both go with every model request). */
export const MAX_TOOLS_PER_SERVER = 128;
export const MAX_DESCRIPTION_CHARS = 4000;

export interface KnownTool {
  /** The name the model sees: mcp__<server>__<tool>. */
  exposed: string;
  /** The server's own name for it. */
  original: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Why it is not offered (an unusable schema, too many tools). */
  problem?: string;
}

export interface ConnectionContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  shellEnv: ShellEnvSettings;
  /** The tool set or the server's state changed; `reason` says how (it names the server); `failure`: it failed. */
  changed(reason: string, failure?: boolean): void;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Connects with the first transport that works; an HTTP 4xx to Streamable HTTP falls back to HTTP+SSE. */
export async function connectClient(
  factories: Array<() => OpenedTransport>,
  timeoutMs: number,
  onClose: (client: McpClient, error: Error) => void,
  onTransport: (t: OpenedTransport) => void = () => undefined,
): Promise<McpClient> {
  let lastError: Error = new Error('no transport');
  for (const [i, factory] of factories.entries()) {
    const opened = factory();
    onTransport(opened);
    const client = new McpClient(opened);
    try {
      await client.connect(timeoutMs, (e) => onClose(client, e));
      return client;
    } catch (e) {
      lastError = e instanceof Error ? e : new Error(String(e));
      await client.close().catch(() => undefined);
      const status = e instanceof StreamableHTTPError ? (e.code ?? 0) : 0;
      const fallBack = i < factories.length - 1 && status >= 400 && status < 500 && status !== 401 && status !== 403;
      if (!fallBack) break;
    }
  }
  throw lastError;
}

export class ServerConnection {
  state: ServerState = 'starting';
  error: string | undefined;
  stderrTail: string | undefined;
  transportKind: TransportKind | undefined;
  tools: KnownTool[] = [];
  restarts = 0;
  client: McpClient | undefined;
  private transport: OpenedTransport | undefined;
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private upSince = 0;
  private stopped = false;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private markSettled: () => void = () => undefined;
  /** Settles when the first connection attempt ends, ready or failed. */
  readonly firstAttempt = new Promise<void>((resolve) => (this.markSettled = resolve));

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly ctx: ConnectionContext,
  ) {}

  start(): void {
    if (!this.config.enabled) {
      this.state = 'disabled';
      this.markSettled();
      return;
    }
    void this.connect();
  }

  private async connect(): Promise<void> {
    const gen = ++this.generation;
    this.state = 'starting';
    try {
      const factories = transportsFor(this.name, this.config, this.ctx);
      const client = await connectClient(
        factories,
        this.config.timeoutMs,
        (c, e) => {
          if (this.client === c) this.fail(gen, e);
        },
        (t) => (this.transport = t),
      );
      if (gen !== this.generation || this.stopped) {
        await client.close();
        return;
      }
      this.client = client;
      this.transportKind = client.opened.kind;
      client.onToolsChanged(() => this.queueRefresh(gen));
      this.tools = this.checkTools(await client.listTools(this.config.timeoutMs));
      if (gen !== this.generation || this.stopped) return;
      this.state = 'ready';
      this.error = undefined;
      this.upSince = Date.now();
      this.markSettled();
      this.ctx.changed(`MCP server "${this.name}" is ready with ${this.offered().length} tool(s)`);
    } catch (e) {
      this.fail(gen, e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** One refresh at a time; notifications during one cause one more (a server announcing changes in a burst). */
  private queueRefresh(gen: number): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = this.refresh(gen, 'changed its tool list').finally(() => {
      this.refreshing = undefined;
      if (this.refreshAgain) {
        this.refreshAgain = false;
        this.queueRefresh(gen);
      }
    });
  }

  private async refresh(gen: number, why: string): Promise<void> {
    const client = this.client;
    if (!client || gen !== this.generation || this.state !== 'ready') return;
    try {
      const tools = this.checkTools(await client.listTools(this.config.timeoutMs));
      if (gen !== this.generation || this.stopped) return;
      this.tools = tools;
      this.ctx.changed(`MCP server "${this.name}" ${why}: ${this.offered().length} tool(s)`);
    } catch (e) {
      this.fail(gen, e instanceof Error ? e : new Error(String(e)));
    }
  }

  private fail(gen: number, error: Error): void {
    if (gen !== this.generation || this.stopped) return;
    this.generation++; // late callbacks of this attempt are ignored
    const tail = this.transport?.stderrTail();
    this.stderrTail = tail ? tail : undefined;
    this.state = 'failed';
    this.error = error.message;
    this.markSettled();
    const client = this.client;
    this.client = undefined;
    void client?.close().catch(() => undefined);
    if (this.upSince > 0 && Date.now() - this.upSince > STABLE_MS) this.restarts = 0;
    this.upSince = 0;
    let next = error instanceof McpSettingsError ? '; not restarted until its config changes' : '; not restarted again until its config changes';
    if (this.restarts < MAX_RESTARTS && !(error instanceof McpSettingsError)) {
      const delay = Math.min(FIRST_RETRY_MS * 2 ** this.restarts, MAX_RETRY_MS);
      this.restarts++;
      next = `; restarting in ${Math.round(delay / 1000)} s (attempt ${this.restarts} of ${MAX_RESTARTS})`;
      this.timer = setTimeout(() => void this.connect(), delay);
      this.timer.unref();
    }
    const stderr = this.stderrTail ? `\nlast stderr lines:\n${this.stderrTail}` : '';
    this.ctx.changed(`MCP server "${this.name}" failed: ${error.message}${next}${stderr}`, true);
  }

  /** Names and checks the server's tools; an unusable one is kept with its problem (shown in the registry). */
  private checkTools(tools: ServerTool[]): KnownTool[] {
    const taken = new Set<string>();
    // Past the offered ones, a few are kept to show in the registry why they are not offered; the rest are dropped.
    return tools.slice(0, MAX_TOOLS_PER_SERVER * 2).map((t, i) => {
      const exposed = uniqueToolName(exposedToolName(this.name, t.name), t.name, taken);
      taken.add(exposed);
      const description = t.description.length > MAX_DESCRIPTION_CHARS ? `${t.description.slice(0, MAX_DESCRIPTION_CHARS)}…` : t.description;
      const schema = isObject(t.inputSchema) ? t.inputSchema : {};
      let problem = isObject(t.inputSchema) ? editorSchemaProblem(schema, 'inputSchema') : 'it has no inputSchema object';
      if (!problem && i >= MAX_TOOLS_PER_SERVER) problem = `the server lists more than ${MAX_TOOLS_PER_SERVER} tools; only the first ${MAX_TOOLS_PER_SERVER} are offered`;
      return { exposed, original: t.name, description, inputSchema: schema, ...(problem ? { problem } : {}) };
    });
  }

  /** A call found the connection gone (an HTTP server that went away): reported and restarted like a crash. */
  lost(client: McpClient, error: Error): void {
    if (this.client === client) this.fail(this.generation, error);
  }

  /** Tools the model is offered: those with a usable schema. */
  offered(): KnownTool[] {
    return this.tools.filter((t) => t.problem === undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.markSettled();
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (client) await client.close().catch(() => undefined);
    else await this.transport?.transport.close().catch(() => undefined);
  }
}
