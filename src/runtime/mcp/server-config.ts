/**
 * The `mcpServers` config key: `{ "<name>": { "command", "args"?, "env"?, "cwd"? } | { "url", "headers"? } }`, each
 * with an optional `timeoutMs` (one tool call; default 60 s) and `enabled` (default true).
 */
import * as z from '../../protocol/zod';
import { serverNameProblem } from './tool-names';

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

const str = () => z.string({ error: 'must be a string' });
const stringMap = (example: string) =>
  z.record(str(), str(), { error: `must be an object of string values, e.g. ${example}` });

// Built on first use (z.lazy): most runs configure no MCP server, and a start builds only what it parses.
export const McpServerSchema = z.lazy(() =>
  z
    .looseObject(
      {
        command: str().min(1, { error: 'must name the program that starts the server' }).optional(),
        args: z.array(str(), { error: 'must be an array of strings, e.g. ["-y", "my-server"]' }).default([]),
        env: stringMap('{ "GITHUB_TOKEN": "${env:GITHUB_TOKEN}" }').default({}),
        cwd: str().optional(),
        url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. "http://127.0.0.1:3000/mcp"' }).optional(),
        headers: stringMap('{ "Authorization": "Bearer ${env:MY_TOKEN}" }').default({}),
        timeoutMs: z
          .number({ error: 'must be a positive integer (milliseconds)' })
          .int({ error: 'must be a positive integer (milliseconds)' })
          .positive({ error: 'must be a positive integer (milliseconds)' })
          .default(DEFAULT_MCP_TIMEOUT_MS),
        enabled: z.boolean({ error: 'must be true or false' }).default(true),
      },
      { error: 'must be an object with "command" (a local server) or "url" (a remote one)' },
    )
    .superRefine((server, ctx) => {
      if (server.command === undefined && server.url === undefined) {
        ctx.addIssue({ code: 'custom', message: 'needs "command" (a program started as a local server) or "url" (a Streamable HTTP server)' });
      } else if (server.command !== undefined && server.url !== undefined) {
        ctx.addIssue({ code: 'custom', message: 'has both "command" and "url": keep one (a server is either local or remote)' });
      }
    }),
);

export const McpServersSchema = z.lazy(() =>
  z
    .record(str(), McpServerSchema, { error: 'must be an object mapping server names to { "command": ... } or { "url": ... }' })
    .superRefine((servers, ctx) => {
      for (const name of Object.keys(servers)) {
        const problem = serverNameProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      }
    }),
);

export type McpServerConfig = z.output<typeof McpServerSchema>;
export type McpServersConfig = z.output<typeof McpServersSchema>;
