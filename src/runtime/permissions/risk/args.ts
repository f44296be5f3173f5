/**
 * The words of a simple command as the risk checks see them: the value after quote removal, whether part of it is
 * only known when the command runs (a variable, `$(...)`), whether it is a glob, and whether it stands for items a
 * list runner (find -exec, xargs, parallel) fills in. `$HOME`, `${HOME}` and `"$HOME"` at the start read as `~`, and
 * `$PWD` as `.`, so that `rm -rf "$HOME"` is judged like `rm -rf ~`.
 */
import type { Word, WordPart } from 'unbash';

export interface Arg {
  /** The value after quote removal; a leading `$HOME` is `~`, a leading `$PWD` is `.`. */
  value: string;
  /** Part of the value is decided when the command runs (variables, command output, arithmetic). */
  dynamic: boolean;
  /** The value has glob or brace patterns (`*`, `?`, `[...]`, `{a,b}`). */
  glob: boolean;
  /** The value stands for the items a list runner (find -exec, xargs, parallel) passes. */
  fromList?: boolean;
  /** Command substitutions or process substitutions inside the word (`$(...)`, `<(...)`). */
  substitutions?: number;
}

const STATIC_HOME = new Set(['HOME']);

interface Building {
  value: string;
  dynamic: boolean;
  glob: boolean;
  substitutions: number;
}

function expansionName(part: WordPart): string | undefined {
  if (part.type === 'SimpleExpansion') return part.text.slice(1);
  if (part.type === 'ParameterExpansion' && !part.prefix && !part.index && !part.operation) return part.parameter;
  return undefined;
}

function addPart(b: Building, part: WordPart): void {
  switch (part.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      b.value += part.value;
      return;
    case 'DoubleQuoted':
    case 'LocaleString':
      for (const child of part.parts) addPart(b, child);
      return;
    case 'Glob':
    case 'ExtendedGlob':
    case 'BraceExpansion':
      b.value += part.text;
      b.glob = true;
      return;
    case 'SimpleExpansion':
    case 'ParameterExpansion': {
      const name = expansionName(part);
      if (/(?:^|[=@:])$/.test(b.value) && name !== undefined && STATIC_HOME.has(name)) b.value += '~';
      else if (b.value === '' && name === 'PWD') b.value += '.';
      else {
        b.value += part.text;
        b.dynamic = true;
      }
      return;
    }
    case 'CommandExpansion':
    case 'ProcessSubstitution':
      b.value += part.text;
      b.dynamic = true;
      b.substitutions++;
      return;
    default:
      b.value += part.text;
      b.dynamic = true;
  }
}

/** The Arg of a parsed word; `placeholders` (e.g. `{}` under find -exec) become list items. */
export function argOf(word: Word, placeholders?: ReadonlySet<string>): Arg {
  const b: Building = { value: '', dynamic: false, glob: false, substitutions: 0 };
  if (word.parts === undefined) b.value = word.value;
  else for (const part of word.parts) addPart(b, part);
  const arg: Arg = { value: b.value, dynamic: b.dynamic, glob: b.glob };
  if (b.substitutions > 0) arg.substitutions = b.substitutions;
  if (placeholders && [...placeholders].some((p) => word.value.includes(p))) {
    arg.dynamic = true;
    arg.fromList = true;
  }
  return arg;
}

export function baseName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** Short flag letters of `-rf`-style words (not `--long`, not `-` alone). */
export function shortFlags(args: readonly Arg[]): string {
  return args
    .filter((a) => !a.dynamic && /^-[A-Za-z0-9]+$/.test(a.value))
    .map((a) => a.value.slice(1))
    .join('');
}

/** Is one of `letters` among the short flags, or one of `longs` given (also as `--long=value`)? */
export function hasFlag(args: readonly Arg[], letters: string, longs: readonly string[] = []): boolean {
  const shorts = shortFlags(args);
  if ([...letters].some((l) => shorts.includes(l))) return true;
  return args.some((a) => longs.some((l) => a.value === l || a.value.startsWith(`${l}=`)));
}

/** Arguments that are not options (before `--` they may not start with `-`; after it anything counts). */
export function operands(args: readonly Arg[]): Arg[] {
  const out: Arg[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a.value === '--') ended = true;
    else if (ended || !a.value.startsWith('-') || a.value === '-') out.push(a);
  }
  return out;
}

/** The value of an option given as `--name value`, `--name=value`, `-x value` or `-xvalue`. */
export function optionValues(args: readonly Arg[], names: readonly string[]): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    for (const name of names) {
      if (a.value === name && args[i + 1]) out.push(args[i + 1]!);
      else if (name.startsWith('--') && a.value.startsWith(`${name}=`)) out.push({ ...a, value: a.value.slice(name.length + 1) });
      else if (!name.startsWith('--') && a.value.startsWith(name) && a.value.length > name.length) out.push({ ...a, value: a.value.slice(name.length) });
    }
  }
  return out;
}

/** One simple command to judge: its base name and its arguments. */
export interface Invocation {
  name: string;
  args: Arg[];
}
