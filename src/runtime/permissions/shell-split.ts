/**
 * Splits a shell command into the simple commands it runs, with a real bash parser (unbash), so that each part is
 * judged on its own: `a && b | c`, `$(...)`, backticks, `( )`, `{ }`, process substitution, the script of
 * `bash -c '...'`, here-docs fed to a shell, and the commands wrappers run (`env`, `xargs`, `find -exec`, ...).
 * Each part says why it is risky (see risky-commands.ts and risk/) or why it cannot be judged.
 */
import type { Command, Function as FunctionNode, Redirection, SyntaxNode } from 'unbash';
import { argOf, type Arg } from './risk/args';
import { judgeCall, type Call, type Judge } from './risk/judge-call';
import type { RiskContext } from './risk/paths';
import type { CommandPart, Feed, PartFacts, Shared, WriteRedirection } from './risk/command-part';

export type { CommandPart } from './risk/command-part';

/** Where relative paths, `~` and `$HOME` point, so targets can be placed (inside the workspace or not). */
export type SplitOptions = RiskContext;

const WRITE_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const READ_OPERATORS = new Set(['<', '<>']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
const MAX_NESTING = 4;

/**
 * The parser, loaded with the first command judged: a start that runs no command never loads it (the CLI carries it
 * as a body of its own, see esbuild.mjs).
 */
let parser: typeof import('unbash') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const unbash = (): typeof import('unbash') => (parser ??= require('unbash') as typeof import('unbash'));
const forEachChild: (typeof import('unbash'))['forEachChild'] = (node, visit) => unbash().forEachChild(node, visit);

function writesOf(redirects: readonly Redirection[]): WriteRedirection[] {
  const writes: WriteRedirection[] = [];
  for (const redirect of redirects) {
    if (redirect.type !== 'Redirect' || !WRITE_OPERATORS.has(redirect.operator) || !redirect.target) continue;
    const target = argOf(redirect.target);
    if (HARMLESS_TARGETS.has(target.value) || target.value.startsWith('/dev/fd/') || /^&?\d*-?$/.test(redirect.target.value)) continue;
    writes.push({ operator: redirect.operator, target: target.value, ...(target.dynamic ? { dynamic: true } : {}) });
  }
  return writes;
}

/** Files redirected into the command (`< file`), and every redirection to a raw network device (`>& /dev/tcp/...`). */
function readsOf(redirects: readonly Redirection[]): Arg[] {
  return redirects.flatMap((r) =>
    r.type === 'Redirect' && r.target && (READ_OPERATORS.has(r.operator) || /^\/dev\/(?:tcp|udp)\//.test(r.target.value)) ? [argOf(r.target)] : [],
  );
}

/** The body of a here-doc or here-string fed to the command's stdin. */
function stdinTextOf(redirects: readonly Redirection[]): Arg | undefined {
  for (const r of redirects) {
    if (r.type === 'HereString' && r.target) return argOf(r.target);
    if (r.type === 'HereDoc') {
      const dynamic = !r.delimiter?.quoted && (r.body.parts ?? []).some((p) => p.type !== 'Literal');
      return { value: r.body.text, dynamic, glob: false };
    }
  }
  return undefined;
}

/** Does the function call itself in a pipeline or in the background (`:(){ :|:& };:`)? */
function isForkBomb(node: FunctionNode): boolean {
  const name = node.name.value;
  let found = false;
  const walk = (n: SyntaxNode, spawning: boolean): void => {
    if (found) return;
    if (n.type === 'Command' && n.name?.value === name && spawning) found = true;
    const next = spawning || (n.type === 'Statement' && n.background === true) || (n.type === 'Pipeline' && n.commands.length > 1);
    forEachChild(n, (child) => walk(child, next));
  };
  walk(node.body, false);
  return found;
}

class Splitter implements Judge {
  readonly parts: CommandPart[] = [];
  feed: Feed | undefined;

  constructor(
    readonly shared: Shared,
    readonly depth: number,
    private readonly placeholders?: ReadonlySet<string>,
  ) {}

  visit(node: SyntaxNode, inheritedWrites: readonly WriteRedirection[]): void {
    if (node.type === 'Script' && node.errors && node.errors.length > 0) {
      this.parts.push(unparseablePart(node.source ?? '', node.errors[0]?.message ?? 'syntax error'));
      return;
    }
    if (node.type === 'Command') return this.command(node, inheritedWrites);
    if (node.type === 'Function' && isForkBomb(node)) {
      this.parts.push({ text: `${node.name.value}()`, words: [], env: [], writes: [], risky: 'defines a fork bomb (a function that keeps starting copies of itself)' });
    }
    if (node.type === 'Redirected') {
      const writes = [...inheritedWrites, ...writesOf(node.redirects)];
      forEachChild(node, (child) => this.visit(child, child === node.command ? writes : inheritedWrites));
      return;
    }
    if (node.type === 'Pipeline') return this.pipeline(node.commands, inheritedWrites);
    forEachChild(node, (child) => this.visit(child, inheritedWrites));
  }

  private pipeline(commands: readonly SyntaxNode[], inheritedWrites: readonly WriteRedirection[]): void {
    const outer = this.feed;
    let feed: Feed | undefined = outer;
    commands.forEach((stage, i) => {
      const start = this.parts.length;
      this.feed = i === 0 ? outer : feed;
      this.visit(stage, inheritedWrites);
      const produced = this.parts.slice(start).map((p) => this.shared.facts.get(p)).filter((f): f is PartFacts => f !== undefined);
      const literal = produced.length === 1 ? produced[0]!.literal : undefined;
      feed = {
        downloaded: (i > 0 && feed?.downloaded === true) || produced.some((f) => f.downloads),
        secrets: (i > 0 && feed?.secrets === true) || produced.some((f) => f.secrets),
        ...(literal !== undefined ? { literal } : {}),
      };
    });
    this.feed = outer;
  }

  private command(node: Command, inheritedWrites: readonly WriteRedirection[]): void {
    const env = node.prefix.filter((item) => item.type === 'Assignment').map((item) => item.text);
    // Words, and `NAME=value` arguments of builtins such as export and declare.
    const words = [node.name, ...node.suffix].flatMap((item): Array<{ arg: Arg; value: string }> => {
      if (item?.type === 'Word') return [{ arg: argOf(item, this.placeholders), value: item.value }];
      if (item?.type === 'Assignment') {
        const value = item.value.type === 'Word' ? argOf(item.value) : { value: item.text, dynamic: true, glob: false };
        const text = `${item.name}${item.append ? '+=' : '='}${value.value}`;
        return [{ arg: { ...value, value: text }, value: text }];
      }
      return [];
    });
    const writes = [...inheritedWrites, ...writesOf(node.redirects)];
    // Nested commands ($(...), backticks, <(...)) run too, before this one: their parts come first.
    const before = this.parts.length;
    const feed = this.feed;
    this.feed = undefined;
    forEachChild(node, (child) => this.visit(child, []));
    this.feed = feed;
    const nested = this.parts.slice(before);
    const stdinText = stdinTextOf(node.redirects);
    const call: Call = {
      args: words.map((w) => w.arg),
      words: words.map((w) => w.value),
      env,
      writes,
      reads: readsOf(node.redirects),
      nested,
      ...(stdinText ? { stdinText } : {}),
    };
    if (words.length === 0) {
      if (writes.length > 0 || env.length > 0) judgeCall(this, call);
      return;
    }
    judgeCall(this, call);
  }

  /** Splits a script run by a command (`bash -c`, a here-doc, `eval`, ...) and adds its parts. */
  splitNested(script: string, writes: readonly WriteRedirection[], placeholders?: ReadonlySet<string>): CommandPart[] {
    if (this.depth >= MAX_NESTING) {
      const part = unparseablePart(script, 'nested too deeply');
      part.unparseable = 'shell commands are nested too deeply';
      this.parts.push(part);
      return [part];
    }
    const inner = split(script, this.shared, this.depth + 1, placeholders ?? this.placeholders);
    for (const part of inner) part.writes.unshift(...writes);
    this.parts.push(...inner);
    return inner;
  }
}

function unparseablePart(text: string, problem: string): CommandPart {
  return { text: text.trim(), words: [], env: [], writes: [], unparseable: `cannot parse the command (${problem})` };
}

function split(command: string, shared: Shared, depth: number, placeholders?: ReadonlySet<string>): CommandPart[] {
  let script;
  try {
    script = unbash().parse(command);
  } catch (error) {
    return [unparseablePart(command, (error as Error).message)];
  }
  if (script.errors && script.errors.length > 0) {
    return [unparseablePart(command, script.errors[0]?.message ?? 'syntax error')];
  }
  const splitter = new Splitter(shared, depth, placeholders);
  splitter.visit(script, []);
  return splitter.parts;
}

/** The simple commands of `command`; unparseable input gives one part flagged `unparseable`. */
export function splitShellCommand(command: string, opts: SplitOptions = {}): CommandPart[] {
  return split(command, { ctx: { cwd: opts.cwd, home: opts.home }, downloaded: new Set(), facts: new WeakMap() }, 0);
}
