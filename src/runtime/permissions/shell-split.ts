/**
 * Splits a shell command into the simple commands it runs, with a real bash parser (unbash), so
 * that each part is judged on its own: `a && b | c`, `$(...)`, backticks, `( )`, `{ }`, process
 * substitution, and the script of `bash -c '...'`.
 */
import { forEachChild, parse, type Command, type Redirection, type SyntaxNode, type Word } from 'unbash';
import { commandName, isDownloader, isShell, riskOf } from './risky-commands';

export interface WriteRedirection {
  operator: string;
  /** The target as written (after quote removal), e.g. `out.txt`. */
  target: string;
}

export interface CommandPart {
  /** Normalized text: words joined by single spaces, leading environment assignments left out. */
  text: string;
  words: string[];
  /** Leading `NAME=value` assignments, e.g. `["CI=1"]`. */
  env: string[];
  /** Redirections that write to files (not `2>&1`, not /dev/null). */
  writes: WriteRedirection[];
  /** Why the part is risky (always asks), if it is. */
  risky?: string;
  /** Why the part cannot be judged (always asks), if so. */
  unparseable?: string;
}

const WRITE_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
const MAX_NESTING = 4;

function wordValue(word: Word): string {
  return word.value;
}

/** A word whose text is decided only at run time (variables, command output) cannot name a command. */
function isDynamic(word: Word): boolean {
  return (word.parts ?? []).some((part) => !['Literal', 'SingleQuoted', 'DoubleQuoted', 'AnsiCQuoted'].includes(part.type) ||
    (part.type === 'DoubleQuoted' && part.parts.some((child) => child.type !== 'Literal')));
}

function writesOf(redirects: readonly Redirection[]): WriteRedirection[] {
  const writes: WriteRedirection[] = [];
  for (const redirect of redirects) {
    if (redirect.type !== 'Redirect' || !WRITE_OPERATORS.has(redirect.operator) || !redirect.target) continue;
    const target = wordValue(redirect.target);
    if (HARMLESS_TARGETS.has(target) || target.startsWith('/dev/fd/')) continue;
    writes.push({ operator: redirect.operator, target });
  }
  return writes;
}

/** The script of `bash -c '<script>'` (also `-lc`, `-ec`), if the command is one. */
function inlineShellScript(command: Command, words: readonly string[]): { script?: string; dynamic: boolean } {
  if (!isShell(words)) return { dynamic: false };
  const args = command.suffix.filter((node): node is Word => node.type === 'Word');
  const flagIndex = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg.value));
  const scriptWord = flagIndex === -1 ? undefined : args[flagIndex + 1];
  if (scriptWord === undefined) return { dynamic: false };
  return isDynamic(scriptWord) ? { dynamic: true } : { script: scriptWord.value, dynamic: false };
}

class Splitter {
  readonly parts: CommandPart[] = [];

  constructor(private readonly depth: number) {}

  visit(node: SyntaxNode, inheritedWrites: readonly WriteRedirection[]): void {
    if (node.type === 'Script' && node.errors && node.errors.length > 0) {
      this.parts.push(unparseablePart(node.source ?? '', node.errors[0]?.message ?? 'syntax error'));
      return;
    }
    if (node.type === 'Command') {
      this.command(node, inheritedWrites);
      return;
    }
    if (node.type === 'Redirected') {
      const writes = [...inheritedWrites, ...writesOf(node.redirects)];
      forEachChild(node, (child) => this.visit(child, child === node.command ? writes : inheritedWrites));
      return;
    }
    if (node.type === 'Pipeline') {
      this.pipeline(node.commands, inheritedWrites);
      return;
    }
    forEachChild(node, (child) => this.visit(child, inheritedWrites));
  }

  private pipeline(commands: readonly SyntaxNode[], inheritedWrites: readonly WriteRedirection[]): void {
    let downloaded = false;
    for (const stage of commands) {
      const start = this.parts.length;
      this.visit(stage, inheritedWrites);
      for (const part of this.parts.slice(start)) {
        if (isDownloader(part.words)) downloaded = true;
        else if (isShell(part.words) && start > 0 && stage !== commands[0] && !part.risky) {
          part.risky = downloaded ? 'pipes a download into a shell' : 'pipes text into a shell';
        }
      }
    }
  }

  private command(node: Command, inheritedWrites: readonly WriteRedirection[]): void {
    const env = node.prefix.filter((item) => item.type === 'Assignment').map((item) => item.text);
    const words = [node.name, ...node.suffix].filter((item): item is Word => item?.type === 'Word').map(wordValue);
    const writes = [...inheritedWrites, ...writesOf(node.redirects)];
    // Nested commands ($(...), backticks, <(...)) run too: visit every child for them.
    forEachChild(node, (child) => this.visit(child, []));
    if (words.length === 0) {
      if (writes.length > 0) this.parts.push({ text: '', words, env, writes });
      return;
    }
    const part: CommandPart = { text: words.join(' '), words, env, writes };
    if (node.name && isDynamic(node.name)) part.unparseable = 'the command name is only known when it runs';
    const risk = riskOf(words);
    if (risk) part.risky = risk;
    const inline = inlineShellScript(node, words);
    if (inline.dynamic) {
      part.unparseable = `the script given to ${commandName(words)} -c is only known when it runs`;
    } else if (inline.script !== undefined) {
      if (this.depth >= MAX_NESTING) {
        part.unparseable = 'shell commands are nested too deeply';
      } else {
        const inner = splitShellCommand(inline.script, this.depth + 1);
        for (const innerPart of inner) innerPart.writes.unshift(...writes);
        if (part.risky) this.parts.push(part);
        this.parts.push(...inner);
        return;
      }
    }
    this.parts.push(part);
  }
}

function unparseablePart(text: string, problem: string): CommandPart {
  return { text: text.trim(), words: [], env: [], writes: [], unparseable: `cannot parse the command (${problem})` };
}

/** The simple commands of `command`; unparseable input gives one part flagged `unparseable`. */
export function splitShellCommand(command: string, depth = 0): CommandPart[] {
  let script;
  try {
    script = parse(command);
  } catch (error) {
    return [unparseablePart(command, (error as Error).message)];
  }
  if (script.errors && script.errors.length > 0) {
    return [unparseablePart(command, script.errors[0]?.message ?? 'syntax error')];
  }
  const splitter = new Splitter(depth);
  splitter.visit(script, []);
  return splitter.parts;
}
