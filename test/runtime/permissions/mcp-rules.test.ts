import assert from 'node:assert/strict';
import { PermissionPolicy } from '../../../src/runtime/permissions/policy';
import { formatRule, parseRule, RuleSyntaxError, unknownRuleToolProblem } from '../../../src/runtime/permissions/rules';
import { ruleAppliesTo } from '../../../src/runtime/permissions/rule-matching';

function policy(rules: { allow?: string[]; ask?: string[]; deny?: string[] }) {
  return new PermissionPolicy({ cwd: '/ws', rules: { allow: [], ask: [], deny: [], ...rules }, mode: 'interactive' });
}
const call = (tool: string) => ({ ruleTool: tool, description: `Call ${tool}` });

describe('permission rules: Mcp(<server>:<tool>)', () => {
  it('parse to the tool name (sanitized like the tool) and format back as written', () => {
    assert.deepEqual(parseRule('Mcp(github:create_issue)'), { tool: 'mcp__github__create_issue', text: 'Mcp(github:create_issue)' });
    assert.equal(parseRule('mcp(x:weird.name)').tool, 'mcp__x__weird_name');
    assert.equal(formatRule(parseRule('Mcp(x:*)')), 'Mcp(x:*)');
    assert.equal(unknownRuleToolProblem(parseRule('Mcp(x:*)')), undefined);
  });

  it('refuse a rule without a tool, a bad server name, or a partial wildcard', () => {
    assert.throws(() => parseRule('Mcp(github)'), (e: unknown) => e instanceof RuleSyntaxError && /names no tool/.test(e.message));
    assert.throws(() => parseRule('Mcp(git__hub:x)'), /not a valid server name/);
    assert.throws(() => parseRule('Mcp(x:)'), /tool after "x:" is missing/);
    assert.throws(() => parseRule('Mcp(x:cre*)'), /"\*" stands only for the whole tool name/);
  });

  it('Mcp(x:*) covers the tools of server x only; Mcp covers every MCP tool', () => {
    const all = parseRule('Mcp(x:*)');
    assert.ok(ruleAppliesTo(all, 'mcp__x__echo'));
    assert.ok(!ruleAppliesTo(all, 'mcp__xy__echo'));
    assert.ok(!ruleAppliesTo(all, 'mcp__y__echo'));
    assert.ok(ruleAppliesTo(parseRule('Mcp'), 'mcp__y__echo'));
    assert.ok(!ruleAppliesTo(parseRule('Mcp'), 'run_command'));
  });

  it('the policy: ask by default, allowed by Mcp(x:*), a deny rule wins, restricted mode denies', () => {
    assert.equal(policy({}).evaluate(call('mcp__x__echo'), false).decision, 'ask');
    assert.equal(policy({ allow: ['Mcp(x:*)'] }).evaluate(call('mcp__x__echo'), false).decision, 'allow');
    assert.equal(policy({ allow: ['Mcp(x:*)'] }).evaluate(call('mcp__y__echo'), false).decision, 'ask');
    const denied = policy({ allow: ['Mcp(x:*)'], deny: ['Mcp(x:echo)'] }).evaluate(call('mcp__x__echo'), false);
    assert.equal(denied.decision, 'deny');
    assert.match(denied.reason, /denied by rule Mcp\(x:echo\)/);
    const restricted = new PermissionPolicy({ cwd: '/ws', rules: { allow: [], ask: [], deny: [] }, mode: 'restricted' });
    assert.equal(restricted.evaluate(call('mcp__x__echo'), false).decision, 'deny');
  });

  it('suggests the Mcp(server:tool) rule the tool names, and a session rule from it allows the call', () => {
    const p = policy({});
    const verdict = p.evaluate({ ...call('mcp__x__echo'), suggestedRule: 'Mcp(x:echo)' }, false);
    assert.deepEqual(verdict.suggestedRules, ['Mcp(x:echo)']);
    p.addSessionRules(verdict.suggestedRules);
    assert.equal(p.evaluate(call('mcp__x__echo'), false).decision, 'allow');
  });
});
