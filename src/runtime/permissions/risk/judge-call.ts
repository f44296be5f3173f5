/**
 * Judges one simple command in its context: the command's own risk, its redirections and environment, what it runs
 * (shells, interpreters, eval, source, wrappers), what flows into it from a pipe, and what it downloads.
 */
import type { CommandPart, Feed, PartFacts, Shared, WriteRedirection } from './command-part';
import { riskOf, SHELLS } from '../risky-commands';
import { baseName, optionValues, operands, type Arg, type Invocation } from './args';
import { codeRisk, languageOf, programOf, type Language } from './inline-code';
import { DOWNLOADERS, dumpsEnvironment, namesCredential, namesSecret, NETWORK_SENDERS, READERS } from './network';
import { isDiskDevice, isNetworkDevice, normalizePath, runsLater } from './paths';
import { COMMAND_VALUED_ENV, envAssignmentRisk } from './system';
import { unwrap } from './wrappers';

export interface Call {
  /** The words as the checks see them (name first). */
  args: Arg[];
  /** The words as written (after quote removal), for the part's text. */
  words: string[];
  /** Leading `NAME=value` assignments as written. */
  env: string[];
  writes: WriteRedirection[];
  /** Files redirected into stdin (`< file`). */
  reads: Arg[];
  /** Parts of the command's own substitutions (`$(...)`, `<(...)`). */
  nested: CommandPart[];
  /** A here-doc or here-string fed to stdin. */
  stdinText?: Arg;
}

/** What judging needs from the splitter. */
export interface Judge {
  readonly shared: Shared;
  readonly parts: CommandPart[];
  feed: Feed | undefined;
  splitNested(script: string, writes: readonly WriteRedirection[], placeholders?: ReadonlySet<string>): CommandPart[];
}

const STDIN_PATHS = new Set(['/dev/stdin', '-', '/proc/self/fd/0', '/dev/fd/0']);

function downloadsIn(j: Judge, parts: readonly CommandPart[]): boolean {
  return parts.some((p) => j.shared.facts.get(p)?.downloads === true);
}

function redirectRisk(j: Judge, call: Call): string | undefined {
  const ctx = j.shared.ctx;
  for (const w of call.writes) {
    if (isNetworkDevice(w.target)) return 'opens a raw network connection through /dev/tcp (a reverse shell or an upload)';
    if (w.dynamic) return `writes to a file only known when it runs (${w.operator} ${w.target})`;
    const p = normalizePath(w.target, ctx);
    if (isDiskDevice(p)) return `writes to a disk device (${w.target})`;
    if (runsLater(p)) return `changes a file that runs code later (${w.target}): shell startup files, ssh keys, git hooks and system config`;
  }
  for (const r of call.reads) {
    if (isNetworkDevice(r.value)) return 'reads from a raw network connection through /dev/tcp (a reverse shell)';
    if (namesSecret(r, ctx) || /^\/proc\/[^/]+\/environ$/.test(r.value)) return `reads a credential file (${r.value})`;
  }
  return undefined;
}

function fileRunRisk(j: Judge, path: Arg): string | undefined {
  if (path.substitutions) return `runs a script only known when it runs (${path.value}), which cannot be judged`;
  if (/^(?:https?|ftp):\/\//.test(path.value)) return 'runs code straight from a URL';
  if (!path.dynamic && j.shared.downloaded.has(normalizePath(path.value, j.shared.ctx))) return `runs a file this command line downloads (${path.value})`;
  return undefined;
}

/** A program read from stdin: a here-doc, a pipe, or a `< file`. `language` undefined means a shell. */
function stdinProgramRisk(j: Judge, call: Call, name: string, language?: Language): string | undefined {
  const what = language ?? 'shell';
  if (call.stdinText) {
    if (!language) {
      j.splitNested(call.stdinText.value, call.writes);
      return undefined;
    }
    return call.stdinText.dynamic ? `runs ${what} code only known when it runs, which cannot be judged` : codeRisk(language, call.stdinText.value);
  }
  const feed = j.feed;
  if (feed) {
    if (feed.downloaded) return language ? `pipes a download into ${name}` : 'pipes a download into a shell';
    if (feed.literal !== undefined) {
      if (language) return codeRisk(language, feed.literal);
      j.splitNested(feed.literal, call.writes);
      return undefined;
    }
    return language ? `runs ${name} code piped in from another command, which cannot be judged` : 'pipes text into a shell';
  }
  const file = call.reads[0];
  return file ? fileRunRisk(j, file) : undefined;
}

/** `bash -c script`, `bash file`, or a program on stdin. */
function shellProgram(args: readonly Arg[]): { kind: 'code'; script: Arg } | { kind: 'file'; path: Arg } | { kind: 'stdin' } {
  let dashC = false;
  let dashS = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      const next = args[i + 1];
      return next && !dashS ? (dashC ? { kind: 'code', script: next } : { kind: 'file', path: next }) : { kind: 'stdin' };
    }
    if (v === '-o' || v === '+o' || v === '-O' || v === '+O' || v === '--rcfile' || v === '--init-file') i++;
    else if (/^[-+][a-zA-Z]+$/.test(v)) {
      if (v.startsWith('-') && v.includes('c')) dashC = true;
      if (v.startsWith('-') && v.includes('s')) dashS = true;
    } else if (!v.startsWith('--')) {
      if (dashS) return { kind: 'stdin' };
      return dashC ? { kind: 'code', script: args[i]! } : { kind: 'file', path: args[i]! };
    }
  }
  return { kind: 'stdin' };
}

/**
 * Shells, interpreters, eval, source, alias and trap: judges what they run. Returns false when the outer part adds
 * nothing to the parts it ran (`bash -c 'a; b'` is judged as `a` and `b`).
 */
function judgeProgram(j: Judge, cmd: Invocation, call: Call, flag: (why: string | undefined) => void, unknown: (why: string) => void): boolean {
  if (SHELLS.has(cmd.name)) {
    const program = shellProgram(cmd.args);
    if (program.kind === 'code') {
      if (program.script.dynamic) {
        unknown(`the script given to ${cmd.name} -c is only known when it runs`);
        flag(downloadsIn(j, call.nested) ? `runs code downloaded from the network (${cmd.name} -c "$(...)")` : undefined);
        return true;
      }
      j.splitNested(program.script.value, call.writes);
      return false;
    }
    flag(program.kind === 'file' ? fileRunRisk(j, program.path) : stdinProgramRisk(j, call, cmd.name));
    return true;
  }
  const language = languageOf(cmd.name);
  if (language) {
    const program = programOf(language, cmd.args);
    if (program.kind === 'code') flag(codeRisk(language, program.code));
    else if (program.kind === 'dynamic') flag(`runs ${language} code only known when it runs, which cannot be judged`);
    else if (program.kind === 'file') flag(fileRunRisk(j, program.path));
    else if (program.kind === 'stdin' && language !== 'awk') flag(stdinProgramRisk(j, call, cmd.name, language));
    return true;
  }
  switch (cmd.name) {
    case 'eval':
      if (cmd.args.some((a) => a.dynamic)) {
        flag(downloadsIn(j, call.nested) ? 'runs code downloaded from the network (eval)' : 'runs text only known when it runs (eval), which cannot be judged');
        return true;
      }
      j.splitNested(cmd.args.map((a) => a.value).join(' '), call.writes);
      return false;
    case 'source':
    case '.': {
      const path = cmd.args[0];
      if (path && STDIN_PATHS.has(path.value)) flag(stdinProgramRisk(j, call, cmd.name));
      else if (path) flag(fileRunRisk(j, path));
      return true;
    }
    case 'alias':
      for (const a of cmd.args) {
        const eq = a.value.indexOf('=');
        if (eq > 0) j.splitNested(a.value.slice(eq + 1), []);
      }
      return true;
    case 'trap': {
      const action = cmd.args[0];
      if (action && cmd.args.length > 1 && !action.value.startsWith('-')) {
        if (action.dynamic) flag('sets a trap that runs text only known when it runs');
        else j.splitNested(action.value, call.writes);
      }
      return true;
    }
    default:
      return true;
  }
}

function judgeAssignment(j: Judge, assignment: string, flag: (why: string | undefined) => void): void {
  flag(envAssignmentRisk(assignment));
  const eq = assignment.indexOf('=');
  if (eq > 0 && COMMAND_VALUED_ENV.test(assignment.slice(0, eq))) j.splitNested(assignment.slice(eq + 1).replace(/^(['"])(.*)\1$/s, '$2'), []);
}

function judgeWrapper(j: Judge, cmd: Invocation, call: Call, flag: (why: string | undefined) => void): void {
  const unwrapped = unwrap(cmd);
  if (!unwrapped) return;
  for (const assignment of unwrapped.env) judgeAssignment(j, assignment, flag);
  for (const inner of unwrapped.inner) {
    if (inner.kind === 'command') {
      judgeCall(j, { ...call, args: inner.args, words: inner.args.map((a) => a.value), env: [], nested: [] });
    } else if (inner.script.dynamic) {
      flag(`runs a command only known when it runs (${cmd.name}), which cannot be judged`);
    } else {
      j.splitNested(inner.script.value, call.writes, inner.placeholders ? new Set(inner.placeholders) : undefined);
    }
  }
  // Options the wrapper parsing does not know may hide the command: any risky tail counts.
  for (let i = 1; i < call.args.length; i++) {
    const why = riskOf({ name: baseName(call.args[i]!.value), args: call.args.slice(i + 1) }, j.shared.ctx);
    if (why) return flag(`runs a risky command through ${cmd.name}: ${why}`);
  }
}

function factsOf(j: Judge, cmd: Invocation, call: Call): PartFacts {
  const ctx = j.shared.ctx;
  const secrets =
    (READERS.has(cmd.name) && cmd.args.some((a) => namesCredential(a, ctx))) ||
    call.reads.some((r) => namesCredential(r, ctx)) ||
    dumpsEnvironment(cmd) ||
    cmd.args.some((a) => /^\/proc\/[^/]+\/environ$/.test(a.value));
  const facts: PartFacts = { downloads: DOWNLOADERS.has(cmd.name), secrets };
  if ((cmd.name === 'echo' || cmd.name === 'printf') && cmd.args.every((a) => !a.dynamic)) {
    facts.literal = cmd.args.filter((a) => !/^-[neE]+$/.test(a.value)).map((a) => a.value).join(' ');
  }
  return facts;
}

function recordDownloads(j: Judge, cmd: Invocation, call: Call): void {
  const ctx = j.shared.ctx;
  const add = (value: string) => j.shared.downloaded.add(normalizePath(value, ctx));
  if (cmd.name === 'tee' && j.feed?.downloaded) operands(cmd.args).forEach((a) => add(a.value));
  if (!DOWNLOADERS.has(cmd.name)) return;
  call.writes.forEach((w) => add(w.target));
  const urls = operands(cmd.args).filter((a) => /^[a-z]+:\/\//i.test(a.value));
  const fromUrl = () => urls.forEach((u) => add(baseName(u.value.replace(/[?#].*$/, '')) || 'index.html'));
  if (cmd.name === 'wget') {
    const out = optionValues(cmd.args, ['-O', '--output-document']);
    if (out.length > 0) out.forEach((o) => o.value !== '-' && add(o.value));
    else fromUrl();
  } else {
    optionValues(cmd.args, ['-o', '--output']).forEach((o) => add(o.value));
    if (cmd.args.some((a) => a.value === '-O' || a.value === '--remote-name' || /^-[a-zA-Z]*O/.test(a.value))) fromUrl();
  }
}

function networkContextRisk(j: Judge, cmd: Invocation, call: Call): string | undefined {
  if (!NETWORK_SENDERS.has(cmd.name)) return undefined;
  if (j.feed?.secrets) return `sends credential files or the environment over the network (piped into ${cmd.name})`;
  if (call.nested.some((p) => j.shared.facts.get(p)?.secrets)) return `sends credential files or the environment over the network (${cmd.name} "$(...)")`;
  if (call.reads.some((r) => namesCredential(r, j.shared.ctx))) return `sends a credential file over the network (${cmd.name} < file)`;
  return undefined;
}

/** Judges one simple command and adds its part (and the parts of what it runs). */
export function judgeCall(j: Judge, call: Call): void {
  const part: CommandPart = { text: call.words.join(' '), words: call.words, env: call.env, writes: call.writes };
  const flag = (why: string | undefined): void => {
    if (why && !part.risky) part.risky = why;
  };
  const index = j.parts.length;
  j.parts.push(part);
  for (const assignment of call.env) judgeAssignment(j, assignment, flag);
  flag(redirectRisk(j, call));
  const name = call.args[0];
  if (!name) {
    if (!part.risky && call.writes.length === 0) j.parts.splice(index, 1);
    return;
  }
  const cmd: Invocation = { name: baseName(name.value), args: call.args.slice(1) };
  j.shared.facts.set(part, factsOf(j, cmd, call));
  if (name.dynamic) {
    part.unparseable = 'the command name is only known when it runs';
    if (downloadsIn(j, call.nested)) flag('runs a command downloaded from the network');
  }
  flag(riskOf(cmd, j.shared.ctx));
  if (name.value.includes('/')) flag(fileRunRisk(j, name));
  flag(networkContextRisk(j, cmd, call));
  const keep = judgeProgram(j, cmd, call, flag, (why) => (part.unparseable ??= why));
  judgeWrapper(j, cmd, call, flag);
  recordDownloads(j, cmd, call);
  if (!keep && !part.risky && !part.unparseable) j.parts.splice(index, 1);
}
