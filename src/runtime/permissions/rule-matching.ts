/**
 * Matching of rule patterns. Bash: `prefix:*` is a prefix at a word boundary, anything else a glob
 * over the command text (`*` spans spaces and slashes). Paths: picomatch globs relative to the
 * workspace root; `/abs/**` is absolute and `~/x` is under the home folder.
 */
import * as path from 'node:path';
import type { Matcher } from 'picomatch';
import { picomatch } from '../workspace/glob';
import { MCP_TOOL_PREFIX } from '../mcp/tool-names';
import type { PermissionRule } from './rules';

const WORD_CHAR = /[A-Za-z0-9_-]/;

function escapeRegExp(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/g, '\\$&');
}

/** Does a Bash rule pattern match one normalized simple command? */
export function matchesCommand(pattern: string, command: string): boolean {
  const text = command.trim();
  if (pattern.endsWith(':*')) {
    const prefix = pattern.slice(0, -2).trim();
    if (prefix === '') return true;
    if (!text.startsWith(prefix)) return false;
    const next = text.charAt(prefix.length);
    return next === '' || !WORD_CHAR.test(next) || !WORD_CHAR.test(prefix.charAt(prefix.length - 1));
  }
  if (!/[*?]/.test(pattern)) return text === pattern.trim().replace(/\s+/g, ' ');
  const source = pattern
    .trim()
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : escapeRegExp(ch)))
    .join('');
  return new RegExp(`^${source}$`, 's').test(text);
}

export interface PathContext {
  cwd: string;
  home?: string;
}

/** The absolute glob a path pattern stands for. */
export function absolutePattern(pattern: string, ctx: PathContext): string {
  if (pattern === '~' || pattern.startsWith('~/')) {
    if (ctx.home === undefined) return pattern;
    return path.posix.join(toPosix(ctx.home), pattern.slice(1));
  }
  if (pattern.startsWith('/')) return pattern;
  return path.posix.join(toPosix(ctx.cwd), pattern.startsWith('./') ? pattern.slice(2) : pattern);
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

const matcherCache = new Map<string, Matcher>();

function matcher(glob: string): Matcher {
  let found = matcherCache.get(glob);
  if (!found) {
    found = picomatch()(glob, { dot: true });
    if (matcherCache.size > 500) matcherCache.clear();
    matcherCache.set(glob, found);
  }
  return found;
}

/** Does a path rule pattern match an absolute path? A plain directory pattern also covers what is inside. */
export function matchesPath(pattern: string, absolutePath: string, ctx: PathContext): boolean {
  const glob = absolutePattern(pattern, ctx);
  const target = toPosix(absolutePath);
  if (matcher(glob)(target)) return true;
  return !picomatch().scan(glob).isGlob && matcher(`${glob.replace(/\/+$/, '')}/**`)(target);
}

/**
 * Is the rule about this tool (`Edit` counts as `Write`)? An MCP rule's tool ending in `*` (from `Mcp(server:*)` or
 * `Mcp`) covers every tool name with that prefix.
 */
export function ruleAppliesTo(rule: PermissionRule, tool: string): boolean {
  if (rule.tool.startsWith(MCP_TOOL_PREFIX) && rule.tool.endsWith('*')) return tool.startsWith(rule.tool.slice(0, -1));
  return canonicalTool(rule.tool) === canonicalTool(tool);
}

const TOOL_ALIASES: Readonly<Record<string, string>> = {
  edit: 'Write',
  multiedit: 'Write',
  write: 'Write',
  read: 'Read',
  bash: 'Bash',
};

/** Rule tool names are case-insensitive for the built-ins; editor tools share the `Write` rules. */
export function canonicalTool(tool: string): string {
  return TOOL_ALIASES[tool.toLowerCase()] ?? tool;
}
