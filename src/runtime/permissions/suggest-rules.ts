/** Rules offered with "always allow": one prefix rule per command part, a path rule per file. */
import * as path from 'node:path';
import type { CommandPart } from './shell-split';

/** Tools whose first argument is a subcommand worth keeping in the rule (`git status`, `npm install`). */
const SUBCOMMAND_TOOLS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'cargo', 'go', 'docker', 'kubectl', 'make', 'pip', 'pip3',
  'poetry', 'uv', 'dotnet', 'gh', 'deno', 'mvn', 'gradle', 'rustup', 'brew', 'apt', 'apt-get', 'systemctl',
]);
/** Subcommands that take a script name next (`npm run test`, `pnpm exec tsc`). */
const RUNNERS = new Set(['run', 'run-script', 'exec', 'x']);
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9:_-]*$/;

/** `npm run test -- --grep x` → `Bash(npm run test:*)`; `ls -la` → `Bash(ls:*)`. Undefined for risky parts. */
export function suggestBashRule(part: CommandPart): string | undefined {
  if (part.risky || part.unparseable || part.words.length === 0) return undefined;
  const [name = '', second, third] = part.words;
  const kept = [name];
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (SUBCOMMAND_TOOLS.has(base) && second !== undefined && SUBCOMMAND.test(second)) {
    kept.push(second);
    if (RUNNERS.has(second) && third !== undefined && SUBCOMMAND.test(third)) kept.push(third);
  } else if (/^python[0-9.]*$/.test(base) && second === '-m' && third !== undefined && SUBCOMMAND.test(third)) {
    kept.push(second, third);
  }
  return `Bash(${kept.join(' ')}:*)`;
}

/** `Write(src/app.ts)` inside the workspace, the absolute path outside it. */
export function suggestPathRule(tool: string, absolutePath: string, cwd: string): string {
  const rel = path.relative(cwd, absolutePath);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  const shown = inside ? rel.split(path.sep).join('/') : absolutePath.split(path.sep).join('/');
  return `${tool}(${shown})`;
}
