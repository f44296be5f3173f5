/**
 * Decides allow / ask / deny for a tool call. Order: deny rules, then ask rules, then the checks no broad rule can
 * lift (protected paths; risky commands, which only an allow rule naming that exact command lifts), then allow rules
 * and session rules, then paths outside the workspace (they need a granted folder, whatever the mode), then the mode's
 * default.
 */
import * as path from 'node:path';
import type { PermissionMode } from '../../protocol/records';
import type { PermissionTarget } from '../tools/types';
import type { DirectoryGrants } from './directory-grants';
import { realPathOf } from '../workspace/paths';
import { protectedReason } from './protected-paths';
import { canonicalTool, matchesCommand, matchesPath, ruleAppliesTo } from './rule-matching';
import { formatRule, parseRule, type PermissionRule } from './rules';
import { splitShellCommand, type CommandPart } from './shell-split';
import { suggestBashRule, suggestPathRule } from './suggest-rules';

/**
 * Why the policy decided as it did, so callers act on the cause rather than on the reason's wording.
 * `mode-default`: no rule or check applied, the permission mode's default decided. `outside-workspace`: a read outside
 * the workspace and outside every granted folder. `risky-command`: a command flagged as risky or not parseable.
 */
export type VerdictCause =
  | 'deny-rule'
  | 'ask-rule'
  | 'allow-rule'
  | 'session-rule'
  | 'protected'
  | 'risky-command'
  | 'outside-workspace'
  | 'read-allowed'
  | 'mode-default'
  | 'empty-command';

export interface PermissionVerdict {
  decision: 'allow' | 'ask' | 'deny';
  cause: VerdictCause;
  reason: string;
  suggestedRules: string[];
}

export interface EvaluateOptions {
  /** Folders the host allowed for this one call only (a directory-access answer with scope `once`). */
  grantedForCall?: readonly string[];
}

export interface PermissionPolicyOptions {
  cwd: string;
  home?: string;
  rules: { allow: string[]; ask: string[]; deny: string[] };
  mode: PermissionMode;
  /** Folders outside the workspace where read-only tools are allowed like inside it. */
  directories?: DirectoryGrants;
}

type Decision = PermissionVerdict['decision'];
type Kind = 'allow' | 'ask' | 'deny';

interface Outcome {
  decision: Decision;
  cause: VerdictCause;
  reason: string;
}

/** Among outcomes with the same decision, a rule or a check outranks the mode's default. */
const CAUSE_WEIGHT: Partial<Record<VerdictCause, number>> = { 'mode-default': -1, 'read-allowed': -1, 'outside-workspace': -1 };

function worstOf(outcomes: Outcome[]): Outcome {
  const score = (o: Outcome) => RANK[o.decision] * 10 + (CAUSE_WEIGHT[o.cause] ?? 0);
  return outcomes.reduce((a, b) => (score(b) > score(a) ? b : a));
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function parseRules(rules: PermissionPolicyOptions['rules']): Record<Kind, PermissionRule[]> {
  return { allow: rules.allow.map(parseRule), ask: rules.ask.map(parseRule), deny: rules.deny.map(parseRule) };
}

const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

export class PermissionPolicy {
  mode: PermissionMode;
  private readonly cwd: string;
  private readonly home?: string;
  private readonly directories?: DirectoryGrants;
  private rules: Record<Kind, PermissionRule[]>;
  private readonly sessionRules: PermissionRule[] = [];
  /** Files whose writes are allowed for now (`allowWriteOf`), with what for. */
  private readonly exactWrites = new Map<string, string>();

  constructor(opts: PermissionPolicyOptions) {
    this.cwd = path.resolve(opts.cwd);
    this.home = opts.home === undefined ? undefined : path.resolve(opts.home);
    this.mode = opts.mode;
    this.directories = opts.directories;
    this.rules = parseRules(opts.rules);
  }

  /** Replaces the configured rules (new settings); rules approved for the session stay. Throws on bad syntax. */
  setRules(rules: PermissionPolicyOptions['rules']): void {
    this.rules = parseRules(rules);
  }

  /** Rules approved for the rest of this session (checked like allow rules). Throws on bad syntax. */
  addSessionRules(rules: string[]): void {
    this.sessionRules.push(...rules.map(parseRule));
  }

  /**
   * Allows writes of exactly this file (after symlinks resolve), protected or not, until the returned function is
   * called; deny and ask rules still apply. `generateSkill` uses it for the one SKILL.md its run proposes.
   */
  allowWriteOf(absolutePath: string, purpose: string): () => void {
    const key = realPathOf(path.resolve(absolutePath));
    this.exactWrites.set(key, purpose);
    return () => {
      if (this.exactWrites.get(key) === purpose) this.exactWrites.delete(key);
    };
  }

  evaluate(target: PermissionTarget, readOnly: boolean, opts: EvaluateOptions = {}): PermissionVerdict {
    const tool = canonicalTool(target.ruleTool);
    const verdict =
      tool === 'Bash' && target.command !== undefined
        ? this.evaluateBash(target.command)
        : this.evaluatePaths(target, tool, readOnly, opts.grantedForCall ?? []);
    if (this.mode === 'restricted' && verdict.decision === 'ask') {
      return { ...verdict, decision: 'deny', reason: `${verdict.reason}; restricted mode cannot ask, so it is denied`, suggestedRules: [] };
    }
    return verdict.decision === 'ask' ? verdict : { ...verdict, suggestedRules: [] };
  }

  private findRule(kind: Kind | 'session', tool: string, matches: (pattern: string) => boolean): PermissionRule | undefined {
    const list = kind === 'session' ? this.sessionRules : this.rules[kind];
    return list.find((rule) => ruleAppliesTo(rule, tool) && (rule.pattern === undefined || matches(rule.pattern)));
  }

  private allowedBy(tool: string, matches: (pattern: string) => boolean): { rule: PermissionRule; cause: VerdictCause } | undefined {
    const rule = this.findRule('allow', tool, matches);
    if (rule) return { rule, cause: 'allow-rule' };
    const session = this.findRule('session', tool, matches);
    return session ? { rule: session, cause: 'session-rule' } : undefined;
  }

  private pathMatcher(absolutePath: string): (pattern: string) => boolean {
    return (pattern) => matchesPath(pattern, absolutePath, { cwd: this.cwd, home: this.home });
  }

  private modeDefault(what: string): Outcome {
    switch (this.mode) {
      case 'unrestricted':
        return { decision: 'allow', cause: 'mode-default', reason: `${what}: allowed in unrestricted mode` };
      case 'restricted':
        return { decision: 'deny', cause: 'mode-default', reason: `${what}: restricted mode allows no writes and no shell` };
      default:
        return { decision: 'ask', cause: 'mode-default', reason: `${what} needs your approval` };
    }
  }

  private evaluatePaths(target: PermissionTarget, tool: string, readOnly: boolean, grantedForCall: readonly string[]): PermissionVerdict {
    const paths = (target.paths ?? []).map((p) => path.resolve(this.cwd, p));
    const subjects: Array<string | undefined> = paths.length > 0 ? paths : [undefined];
    const outcomes = subjects.map((p) => this.evaluateOnePath(tool, p, readOnly, target.description, grantedForCall));
    const worst = worstOf(outcomes);
    const suggestedRules =
      paths.length === 0
        ? [target.suggestedRule ?? target.ruleTool]
        : paths.filter((p) => readOnly || !protectedReason(p, this.context())).map((p) => suggestPathRule(tool, p, this.cwd));
    return { ...worst, suggestedRules: [...new Set(suggestedRules)] };
  }

  private context(): { cwd: string; home?: string } {
    return { cwd: this.cwd, home: this.home };
  }

  private evaluateOnePath(
    tool: string,
    absolutePath: string | undefined,
    readOnly: boolean,
    description: string,
    grantedForCall: readonly string[],
  ): Outcome {
    const matches = absolutePath === undefined ? () => false : this.pathMatcher(absolutePath);
    const shown = absolutePath === undefined ? description : this.display(absolutePath);
    const deny = this.findRule('deny', tool, matches);
    if (deny) return { decision: 'deny', cause: 'deny-rule', reason: `${shown}: denied by rule ${formatRule(deny)}` };
    const ask = this.findRule('ask', tool, matches);
    if (ask) return { decision: 'ask', cause: 'ask-rule', reason: `${shown}: rule ${formatRule(ask)} asks first` };
    const exactWrite = !readOnly && absolutePath !== undefined && tool === 'Write' ? this.exactWrites.get(realPathOf(absolutePath)) : undefined;
    if (exactWrite !== undefined) return { decision: 'allow', cause: 'session-rule', reason: `${shown}: allowed for ${exactWrite}` };
    if (!readOnly && absolutePath !== undefined) {
      const why = protectedReason(absolutePath, this.context());
      if (why) return { decision: 'ask', cause: 'protected', reason: `${shown} is protected (${why}); writes there always ask` };
    }
    const allow = this.allowedBy(tool, matches);
    if (allow) return { decision: 'allow', cause: allow.cause, reason: `${shown}: allowed by rule ${formatRule(allow.rule)}` };
    if (readOnly) return this.readDefault(absolutePath, shown, grantedForCall);
    if (absolutePath !== undefined && !this.isInsideOrGranted(absolutePath, grantedForCall)) return this.outside(shown);
    return this.modeDefault(`${tool} ${shown}`);
  }

  /** Is the path in a granted folder (config `additionalDirectories`, the agent's output folder, session grants)? */
  private isGranted(absolutePath: string, grantedForCall: readonly string[]): boolean {
    const candidates = [absolutePath, realPathOf(absolutePath)];
    return candidates.some(
      (p) => (this.directories?.isGranted(p) ?? false) || grantedForCall.some((dir) => isInside(p, dir) || isInside(p, realPathOf(dir))),
    );
  }

  private isInsideOrGranted(absolutePath: string, grantedForCall: readonly string[]): boolean {
    return isInside(absolutePath, this.cwd) || isInside(realPathOf(absolutePath), this.cwd) || this.isGranted(absolutePath, grantedForCall);
  }

  private readDefault(absolutePath: string | undefined, shown: string, grantedForCall: readonly string[]): Outcome {
    if (absolutePath === undefined || this.isInsideOrGranted(absolutePath, grantedForCall)) {
      return { decision: 'allow', cause: 'read-allowed', reason: `${shown}: reading is allowed` };
    }
    return this.outside(shown);
  }

  /**
   * A path outside the workspace and every granted folder: one rule for every mode, unrestricted included. It needs
   * directory access (asked), or the folder in permissions.additionalDirectories; restricted mode denies it.
   */
  private outside(shown: string): Outcome {
    if (this.mode === 'restricted') {
      return { decision: 'deny', cause: 'outside-workspace', reason: `${shown} is outside the workspace; restricted mode works only inside it` };
    }
    return { decision: 'ask', cause: 'outside-workspace', reason: `${shown} is outside the workspace and every granted folder` };
  }

  private display(absolutePath: string): string {
    return isInside(absolutePath, this.cwd) ? path.relative(this.cwd, absolutePath) || '.' : absolutePath;
  }

  /** An allow rule (configured or approved for the session) whose pattern is exactly this command, without wildcards. */
  private exactAllowRule(command: string): PermissionRule | undefined {
    const text = command.trim();
    const exact = (rule: PermissionRule) => ruleAppliesTo(rule, 'Bash') && rule.pattern !== undefined && !rule.pattern.includes('*') && rule.pattern.trim() === text;
    return this.rules.allow.find(exact) ?? this.sessionRules.find(exact);
  }

  private evaluateBash(command: string): PermissionVerdict {
    const parts = splitShellCommand(command, this.context()).filter(
      (part) => part.text !== '' || part.writes.length > 0 || part.risky !== undefined || part.unparseable !== undefined,
    );
    if (parts.length === 0) return { decision: 'allow', cause: 'empty-command', reason: 'empty command', suggestedRules: [] };
    const exact = this.exactAllowRule(command);
    const outcomes = parts.map((part) => this.evaluatePart(part, exact));
    const worst = worstOf(outcomes);
    const suggestedRules = parts
      .filter((_, i) => outcomes[i]?.decision === 'ask')
      .map((part) => suggestBashRule(part))
      .filter((rule): rule is string => rule !== undefined);
    return { ...worst, suggestedRules: [...new Set(suggestedRules)] };
  }

  private evaluatePart(part: CommandPart, exact: PermissionRule | undefined): Outcome {
    const shown = part.text !== '' ? part.text : part.writes.length > 0 ? `redirection to ${part.writes.map((w) => w.target).join(', ')}` : part.env.join(' ');
    const matches = (pattern: string): boolean => part.text !== '' && matchesCommand(pattern, part.text);
    const targets = part.writes.map((write) => path.resolve(this.cwd, this.expandHome(write.target)));

    const deny = this.findRule('deny', 'Bash', matches);
    if (deny) return { decision: 'deny', cause: 'deny-rule', reason: `"${shown}" is denied by rule ${formatRule(deny)}` };
    for (const target of targets) {
      const rule = this.findRule('deny', 'Write', this.pathMatcher(target));
      if (rule) return { decision: 'deny', cause: 'deny-rule', reason: `writing ${this.display(target)} is denied by rule ${formatRule(rule)}` };
    }
    const ask = this.findRule('ask', 'Bash', matches);
    if (ask) return { decision: 'ask', cause: 'ask-rule', reason: `"${shown}": rule ${formatRule(ask)} asks first` };
    for (const target of targets) {
      const why = protectedReason(target, this.context());
      if (why) return { decision: 'ask', cause: 'protected', reason: `"${shown}" writes ${this.display(target)}, which is protected (${why})` };
    }
    if (exact) return { decision: 'allow', cause: 'allow-rule', reason: `"${shown}" is allowed by rule ${formatRule(exact)}, which names this exact command` };
    if (part.unparseable) return { decision: 'ask', cause: 'risky-command', reason: `"${shown}": ${part.unparseable}` };
    if (part.risky) return { decision: 'ask', cause: 'risky-command', reason: `"${shown}" ${part.risky}` };
    if (part.text === '') return this.modeDefault(shown);
    const allow = this.allowedBy('Bash', matches);
    if (allow) return { decision: 'allow', cause: allow.cause, reason: `"${shown}" is allowed by rule ${formatRule(allow.rule)}` };
    return this.modeDefault(`"${shown}"`);
  }

  private expandHome(target: string): string {
    if (this.home !== undefined && (target === '~' || target.startsWith('~/'))) return path.join(this.home, target.slice(1));
    return target;
  }
}
