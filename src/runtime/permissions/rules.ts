/**
 * Permission rule syntax: `Tool` (every call of that tool) or `Tool(pattern)`.
 * Examples: `Read(src/**)`, `Write(docs/*.md)`, `Bash(npm run test:*)`, `Bash(git status)`.
 */

export interface PermissionRule {
  /** Tool name as used by rules: `Read`, `Write`, `Bash`, or another tool's name. */
  tool: string;
  /** The part between the parentheses; absent for a bare `Tool` rule, which matches every call. */
  pattern?: string;
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

/** Parse one rule string; throws RuleSyntaxError naming the rule and the expected syntax. */
export function parseRule(text: string): PermissionRule {
  const rule = text.trim();
  if (rule === '') throw new RuleSyntaxError(text, 'the rule is empty');
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
  return { tool, pattern };
}

/** Format a rule back to its canonical text. */
export function formatRule(rule: PermissionRule): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}
