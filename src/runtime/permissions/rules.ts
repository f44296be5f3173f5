/**
 * Permission rule syntax: `Tool` (every call of that tool) or `Tool(pattern)`.
 * Examples: `Read(src/**)`, `Write(docs/*.md)`, `Bash(npm run test:*)`, `Bash(git status)`.
 * MCP server tools: `Mcp(<server>:<tool>)`, `Mcp(<server>:*)` (every tool of the server), `Mcp` (every MCP tool).
 */
import { MCP_TOOL_PREFIX, exposedToolName, serverNameProblem, serverToolPrefix } from '../mcp/tool-names';

export interface PermissionRule {
  /** Tool name as used by rules: `Read`, `Write`, `Bash`, or another tool's name. */
  tool: string;
  /** The part between the parentheses; absent for a bare `Tool` rule, which matches every call. */
  pattern?: string;
  /**
   * The rule as written, when `tool` is derived from it: an `Mcp(server:tool)` rule becomes the tool's name
   * (`mcp__server__tool`), and `Mcp(server:*)` the prefix of its server's tools followed by `*`.
   */
  text?: string;
}

export const RULE_SYNTAX_HELP = 'write rules as Tool or Tool(pattern), e.g. "Read(src/**)", "Bash(npm run test:*)"';

export class RuleSyntaxError extends Error {
  constructor(
    readonly rule: string,
    readonly problem: string,
  ) {
    super(`invalid permission rule ${JSON.stringify(rule)}: ${problem}; ${RULE_SYNTAX_HELP}`);
    this.name = 'RuleSyntaxError';
  }
}

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/** The MCP rule tool name (any case): `Mcp(<server>:<tool>)`. */
export const MCP_RULE_TOOL = 'Mcp';
const MCP_RULE_HELP = 'write Mcp(<server>:<tool>) or Mcp(<server>:*), e.g. "Mcp(github:create_issue)"';

/** `Mcp(server:tool)` → the rule on the tool's name; `Mcp(server:*)` → every tool of the server; `Mcp` → every MCP tool. */
function parseMcpRule(text: string, pattern: string | undefined): PermissionRule {
  const shown = text.trim();
  if (pattern === undefined) return { tool: `${MCP_TOOL_PREFIX}*`, text: shown };
  const colon = pattern.indexOf(':');
  if (colon === -1) throw new RuleSyntaxError(text, `"${pattern}" names no tool; ${MCP_RULE_HELP}`);
  const server = pattern.slice(0, colon).trim();
  const tool = pattern.slice(colon + 1).trim();
  const problem = serverNameProblem(server);
  if (problem) throw new RuleSyntaxError(text, problem);
  if (tool === '') throw new RuleSyntaxError(text, `the tool after "${server}:" is missing; ${MCP_RULE_HELP}`);
  if (tool === '*') return { tool: `${serverToolPrefix(server)}*`, text: shown };
  if (tool.includes('*')) throw new RuleSyntaxError(text, `"*" stands only for the whole tool name; ${MCP_RULE_HELP}`);
  return { tool: exposedToolName(server, tool), text: shown };
}

/** Parse one rule string; throws RuleSyntaxError naming the rule and the expected syntax. */
export function parseRule(text: string): PermissionRule {
  const rule = text.trim();
  if (rule === '') throw new RuleSyntaxError(text, 'the rule is empty');
  if (rule.toLowerCase() === MCP_RULE_TOOL.toLowerCase()) return parseMcpRule(text, undefined);
  const open = rule.indexOf('(');
  if (open === -1) {
    if (rule.includes(')')) throw new RuleSyntaxError(text, 'there is a ")" without a matching "("');
    if (!TOOL_NAME.test(rule)) throw new RuleSyntaxError(text, `"${rule}" is not a tool name (letters, digits, _ . -)`);
    return { tool: rule };
  }
  const tool = rule.slice(0, open).trim();
  if (tool === '') throw new RuleSyntaxError(text, 'the tool name before "(" is missing');
  if (!TOOL_NAME.test(tool)) throw new RuleSyntaxError(text, `"${tool}" is not a tool name (letters, digits, _ . -)`);
  if (!rule.endsWith(')')) throw new RuleSyntaxError(text, 'the pattern must end with ")"');
  const pattern = rule.slice(open + 1, -1).trim();
  if (pattern === '') throw new RuleSyntaxError(text, 'the pattern between the parentheses is empty (drop the parentheses to match every call)');
  if (tool.toLowerCase() === MCP_RULE_TOOL.toLowerCase()) return parseMcpRule(text, pattern);
  return { tool, pattern };
}

/** Format a rule back to its canonical text. */
export function formatRule(rule: PermissionRule): string {
  if (rule.text !== undefined) return rule.text;
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}

/** Tool names rules match (any case): Edit and MultiEdit share Write's rules. Editor tools are `editor_<name>`. */
export const RULE_TOOL_NAMES = ['Read', 'Write', 'Edit', 'MultiEdit', 'Bash'] as const;
/** The prefix of editor tools' names (EDITOR_TOOL_PREFIX of agent/editor-tools). */
const EDITOR_TOOL_RULE_PREFIX = 'editor_';

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/**
 * Why a rule can never match, when it names a tool no rule is checked against (`Wrte(a.txt)`); undefined for a known
 * tool. The problem names the known tools and the likely one.
 */
export function unknownRuleToolProblem(rule: PermissionRule): string | undefined {
  const lower = rule.tool.toLowerCase();
  if (RULE_TOOL_NAMES.some((t) => t.toLowerCase() === lower) || rule.tool.startsWith(EDITOR_TOOL_RULE_PREFIX)) return undefined;
  if (rule.tool.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const close = RULE_TOOL_NAMES.find((t) => distance(t.toLowerCase(), lower) <= 2);
  return (
    `"${rule.tool}" is not a tool rules apply to, so the rule would never match${close ? ` (did you mean ${close}?)` : ''}; ` +
    `known tools: ${RULE_TOOL_NAMES.join(', ')}, an editor tool ${EDITOR_TOOL_RULE_PREFIX}<name>, or Mcp(<server>:<tool>)`
  );
}
