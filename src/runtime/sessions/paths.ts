import path from 'node:path';

/** Saved session files: `~/.agentcli/sessions/<sessionId>.jsonl`, with `<sessionId>.lock` while a runtime holds one. */
export function sessionsDir(home: string): string {
  return path.join(home, '.agentcli', 'sessions');
}

/** The shape of the ids the runtime gives sessions (`session_` and 12 hex digits); anything else is never a file name. */
const SESSION_ID = /^session_[a-z0-9]{4,64}$/i;

export function isValidSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

export const SESSION_FILE_SUFFIX = '.jsonl';

/** The session file of a valid id; throws on an id that could name another path (callers check first). */
export function sessionFile(dir: string, id: string): string {
  if (!isValidSessionId(id)) throw new Error(`not a session id: ${JSON.stringify(id)}`);
  return path.join(dir, `${id}${SESSION_FILE_SUFFIX}`);
}

export function lockFile(dir: string, id: string): string {
  if (!isValidSessionId(id)) throw new Error(`not a session id: ${JSON.stringify(id)}`);
  return path.join(dir, `${id}.lock`);
}

/** The session id of a directory entry, or undefined for anything that is not a session file. */
export function idOfEntry(name: string): string | undefined {
  if (!name.endsWith(SESSION_FILE_SUFFIX)) return undefined;
  const id = name.slice(0, -SESSION_FILE_SUFFIX.length);
  return isValidSessionId(id) ? id : undefined;
}
