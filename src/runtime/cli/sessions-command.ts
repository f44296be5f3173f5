/**
 * `agentcli sessions list [--all] [--page n] [--json]`, `sessions show <id> [--json]`, `sessions rm <id>`: the saved
 * sessions in ~/.agentcli/sessions (see README "Saved sessions").
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { HistoryMessage } from '../../protocol/records';
import { listHistory } from '../sessions/history';
import { lockedByOther } from '../sessions/lock';
import { isValidSessionId, lockFile, sessionFile, sessionsDir } from '../sessions/paths';
import { CorruptSessionError, readSessionFile } from '../sessions/reader';
import type { CliIo } from './io';

export const SESSIONS_USAGE = `Usage: agentcli sessions list [--all] [--page <n>] [--json]   saved sessions of this folder (--all: every folder), newest first
       agentcli sessions show <id> [--json]                    one saved session with its messages
       agentcli sessions rm <id>                               remove a saved session
Continue one with: agentcli --resume <id>   (or agentcli --continue for the newest in this folder)`;

const PAGE_SIZE = 20;

function usage(io: CliIo, problem: string): number {
  io.stderr(`agentcli sessions: ${problem}\n\n${SESSIONS_USAGE}\n`);
  return 2;
}

function oneLine(text: string, max: number): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function formatMessage(m: HistoryMessage): string {
  if (m.role === 'tool') return `  [tool result ${m.toolName ?? ''}] ${oneLine(m.content, 200)}`;
  const calls = (m.toolCalls ?? []).map((c) => `\n  [tool call ${c.name}] ${oneLine(c.arguments, 200)}`).join('');
  return `${m.role}: ${m.content}${calls}`;
}

export function runSessionsCommand(argv: string[], io: CliIo): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        all: { type: 'boolean', default: false },
        page: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    return usage(io, (e as Error).message);
  }
  const [action, id, ...extra] = parsed.positionals;
  const { values: v } = parsed;
  if (v.help || action === 'help') {
    io.stdout(`${SESSIONS_USAGE}\n`);
    return 0;
  }
  const dir = sessionsDir(io.home);
  if (action === 'list' || action === undefined) {
    if (id !== undefined) return usage(io, `list takes no argument (got "${id}")`);
    const page = v.page === undefined ? 1 : Number(v.page);
    if (!Number.isInteger(page) || page < 1) return usage(io, `--page must be a positive integer (got "${v.page}")`);
    const result = listHistory(dir, { page, pageSize: PAGE_SIZE, cwd: v.all ? undefined : io.cwd });
    if (v.json) {
      io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    }
    if (result.total === 0) {
      io.stdout(`no saved sessions${v.all ? '' : ` in ${io.cwd} (--all lists every folder)`}\n`);
      return 0;
    }
    for (const e of result.entries) {
      const where = v.all ? `  ${e.cwd}` : '';
      io.stdout(`${e.sessionId}  ${e.updatedAt.slice(0, 16).replace('T', ' ')}  ${String(e.messageCount).padStart(4)} msgs  ${e.provider}/${e.model}${where}\n    ${e.title}\n`);
    }
    const pages = Math.ceil(result.total / PAGE_SIZE);
    io.stdout(`page ${page} of ${pages} (${result.total} session(s))${page < pages ? `; next: agentcli sessions list --page ${page + 1}` : ''}\n`);
    return 0;
  }
  if (action !== 'show' && action !== 'rm') return usage(io, `unknown action "${action}": use list, show or rm`);
  if (id === undefined) return usage(io, `${action} needs a session id (see agentcli sessions list)`);
  if (extra.length > 0) return usage(io, `${action} takes one session id (extra argument: "${extra[0]}")`);
  if (!isValidSessionId(id) || !fs.existsSync(sessionFile(dir, id))) {
    io.stderr(`agentcli sessions: no saved session "${id}" in ${dir}; list them with: agentcli sessions list --all\n`);
    return 1;
  }
  if (action === 'rm') {
    if (lockedByOther(lockFile(dir, id))) {
      io.stderr(`agentcli sessions: session ${id} is open in another agentcli: close that one first\n`);
      return 1;
    }
    fs.rmSync(sessionFile(dir, id), { force: true });
    fs.rmSync(lockFile(dir, id), { force: true });
    io.stdout(`removed ${id}\n`);
    return 0;
  }
  let data;
  try {
    data = readSessionFile(sessionFile(dir, id));
  } catch (e) {
    if (!(e instanceof CorruptSessionError)) throw e;
    io.stderr(`agentcli sessions: ${e.message}; remove it with: agentcli sessions rm ${id}\n`);
    return 1;
  }
  if (v.json) {
    const { validBytes: _v, ...rest } = data;
    io.stdout(`${JSON.stringify(rest, null, 2)}\n`);
    return 0;
  }
  io.stdout(
    `session ${id}\n  folder   ${data.meta.cwd}\n  created  ${data.meta.createdAt}\n  updated  ${data.updatedAt}\n  model    ${data.provider}/${data.model}\n  messages ${data.messages.length}\n`,
  );
  if (data.tornBytes) io.stdout('  note     its last line was cut short (the runtime was killed while writing) and is skipped\n');
  if (data.batch) io.stdout(`  pending  ${data.batch.changes.length} proposed file change(s) wait for a decision\n`);
  io.stdout('\n');
  for (const m of data.messages) io.stdout(`${formatMessage(m)}\n`);
  for (const e of data.errors) io.stdout(`error ${e.code}: ${e.error}\n`);
  return 0;
}
