import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { GrepMatch, GrepQuery } from './grep-matches';
import { ToolInputError } from './types';
/* eslint-disable @typescript-eslint/no-require-imports -- loaded when a tool first runs, not at CLI start */
const childProcess = () => require('node:child_process') as typeof import('node:child_process');
const readline = () => require('node:readline') as typeof import('node:readline');
/* eslint-enable @typescript-eslint/no-require-imports */

/** Env var naming the ripgrep binary to use (the extension points it at the editor's bundled one). */
export const RG_PATH_ENV = 'AGENTCLI_RG_PATH';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The ripgrep binary: `AGENTCLI_RG_PATH` when it is executable, else `rg` on PATH, else null. */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env[RG_PATH_ENV];
  if (configured && isExecutable(configured)) return configured;
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd'] : ['rg'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

export interface RipgrepSearch {
  rgPath: string;
  query: GrepQuery;
  /** File or folder to search (absolute). */
  target: string;
  /** Whether `target` is the root of the ignore rules (then parent folders' ignore files are not read). */
  targetIsRulesRoot: boolean;
  /** A glob on file names to pass through (the caller filters again with the exact same semantics). */
  nameGlob?: string;
  maxMatches: number;
  signal: AbortSignal;
}

interface RgMatchEvent {
  type: string;
  data?: { path?: { text?: string }; line_number?: number; lines?: { text?: string; bytes?: string } };
}

function argsOf(search: RipgrepSearch): string[] {
  const args = ['--json', '--no-config', '--hidden', '--no-require-git', '--no-ignore-dot', '--no-ignore-global'];
  if (search.targetIsRulesRoot) args.push('--no-ignore-parent');
  args.push('--glob', '!.git');
  if (search.nameGlob) args.push('--glob', search.nameGlob);
  if (search.query.ignoreCase) args.push('--ignore-case');
  else args.push('--case-sensitive');
  args.push('--regexp', search.query.pattern, '--', search.target);
  return args;
}

function matchOf(line: string, cwd: string): GrepMatch | null {
  let event: RgMatchEvent;
  try {
    event = JSON.parse(line) as RgMatchEvent;
  } catch {
    return null;
  }
  if (event.type !== 'match' || !event.data?.path?.text || !event.data.line_number) return null;
  const lines = event.data.lines;
  const raw = lines?.text ?? (lines?.bytes ? Buffer.from(lines.bytes, 'base64').toString('utf8') : '');
  return {
    absPath: path.resolve(cwd, event.data.path.text),
    line: event.data.line_number,
    text: raw.replace(/\r?\n$/, ''),
  };
}

/** Run `rg --json` and collect matches. Regex errors become a ToolInputError with ripgrep's message. */
export function runRipgrep(search: RipgrepSearch): Promise<{ matches: GrepMatch[]; incomplete: boolean }> {
  return new Promise((resolve, reject) => {
    const cwd = path.dirname(search.target);
    const child = childProcess().spawn(search.rgPath, argsOf(search), { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal: search.signal });
    const matches: GrepMatch[] = [];
    let incomplete = false;
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 8192) stderr += chunk;
    });
    const reader = readline().createInterface({ input: child.stdout });
    reader.on('line', (line) => {
      if (incomplete) return;
      const match = matchOf(line, cwd);
      if (!match) return;
      matches.push(match);
      if (matches.length >= search.maxMatches) {
        incomplete = true;
        child.kill('SIGTERM');
      }
    });
    child.on('error', (err) => {
      if (search.signal.aborted) resolve({ matches, incomplete: true });
      else reject(new Error(`could not run ripgrep (${search.rgPath}): ${err.message}`));
    });
    child.on('close', (code) => {
      if (incomplete || search.signal.aborted || code === 0 || code === 1) {
        resolve({ matches, incomplete: incomplete || search.signal.aborted });
        return;
      }
      const message = stderr.trim() || `ripgrep exited with code ${code}`;
      if (/regex parse error|error parsing regex|unrecognized escape/i.test(message)) {
        reject(new ToolInputError(`invalid regex ${JSON.stringify(search.query.pattern)}: ${message}`));
      } else if (matches.length > 0) {
        resolve({ matches, incomplete: false });
      } else {
        reject(new Error(`ripgrep failed: ${message}`));
      }
    });
  });
}
