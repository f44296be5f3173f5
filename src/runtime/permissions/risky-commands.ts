/**
 * Commands that always need a person's eye, even under --yolo or a broad allow rule. Each check judges one simple
 * command (name and arguments, quotes removed, `$HOME` read as `~`); the shell splitter feeds it every command a line
 * runs, including those behind wrappers (`env`, `xargs`, `find -exec`), in `-c` strings, here-docs and substitutions.
 * The checks by category live in `risk/`.
 */
import type { Arg, Invocation } from './risk/args';
import { fileRisk } from './risk/files';
import { gitRisk } from './risk/git';
import { sedScriptRisk } from './risk/inline-code';
import { networkRisk } from './risk/network';
import type { RiskContext } from './risk/paths';
import { systemRisk } from './risk/system';

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash', 'csh', 'tcsh', 'rbash', 'yash', 'posh']);

function sedRisk(cmd: Invocation): string | undefined {
  if (cmd.name !== 'sed' && cmd.name !== 'gsed') return undefined;
  const scripts: Arg[] = [];
  for (let i = 0; i < cmd.args.length; i++) {
    const v = cmd.args[i]!.value;
    if (v === '-e' || v === '--expression') {
      const next = cmd.args[++i];
      if (next) scripts.push(next);
    }
    else if (v.startsWith('--expression=')) scripts.push({ ...cmd.args[i]!, value: v.slice(13) });
  }
  if (scripts.length === 0) {
    const first = cmd.args.find((a, i) => !a.value.startsWith('-') && !['-f', '--file', '-l'].includes(cmd.args[i - 1]?.value ?? ''));
    if (first) scripts.push(first);
  }
  for (const s of scripts) {
    const why = sedScriptRisk(s.value);
    if (why) return why;
  }
  return undefined;
}

/** Why this simple command is risky, or undefined. */
export function riskOf(cmd: Invocation, ctx: RiskContext = {}): string | undefined {
  return systemRisk(cmd, ctx) ?? fileRisk(cmd, ctx) ?? gitRisk(cmd) ?? networkRisk(cmd, ctx) ?? sedRisk(cmd);
}

