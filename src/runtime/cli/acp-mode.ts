/**
 * `agentcli --acp`: wires the ACP server to the CLI's flags. Each ACP session reads the config of its own folder
 * (`cwd` from session/new), so the project settings that apply are those of the folder the editor opened.
 */
import { startAcpServer } from '../acp/server';
import { loadConfig } from '../config/load';
import { listHistory } from '../sessions/history';
import { sessionsDir } from '../sessions/paths';
import type { CliOptions } from './args';
import { createSession } from './create-session';
import type { CliIo } from './io';

export async function runAcp(opts: CliOptions, cliIo: CliIo): Promise<number> {
  // stdout carries the protocol and nothing else: anything written to the CLI's stdout goes to stderr instead.
  const io: CliIo = { ...cliIo, stdout: cliIo.stderr };
  const log = (line: string) => io.stderr(`[agentcli] ${line}\n`);
  await startAcpServer({
    input: process.stdin,
    output: process.stdout,
    log,
    listSessions: (q) => listHistory(sessionsDir(io.home), { page: q.page, pageSize: q.pageSize, cwd: q.cwd }),
    createSession: (cwd, host, files, mcpServers) => {
      const sessionIo: CliIo = { ...io, cwd };
      const warn = (line: string) => io.stderr(`${line}\n`);
      const loaded = loadConfig({ cwd, home: io.home, env: io.env, bare: opts.bare, projectConfig: opts.projectConfig, warn }).config;
      // The client's servers join the configured ones (a client server of the same name replaces that one).
      const config = Object.keys(mcpServers).length > 0 ? { ...loaded, mcpServers: { ...loaded.mcpServers, ...mcpServers } } : loaded;
      // Edits apply directly after permission (not as a change batch): the editor shows and reviews them itself.
      return createSession(opts, config, host, sessionIo, false, { files });
    },
  });
  return 0;
}
