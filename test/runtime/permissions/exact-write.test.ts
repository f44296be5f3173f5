import * as assert from 'node:assert/strict';
import { PermissionPolicy } from '../../../src/runtime/permissions/policy';

const cwd = '/w/project';
const skill = '/w/project/.agentcli/skills/api/SKILL.md';

function policy(rules: { ask?: string[]; deny?: string[] } = {}) {
  return new PermissionPolicy({ cwd, home: '/home/u', mode: 'interactive', rules: { allow: [], ask: rules.ask ?? [], deny: rules.deny ?? [] } });
}
const write = (p: string) => ({ ruleTool: 'Write', paths: [p], description: `Write ${p}` });

describe('PermissionPolicy.allowWriteOf (generateSkill: one file, for one run)', () => {
  it('lets exactly that protected file through until revoked', () => {
    const p = policy();
    assert.equal(p.evaluate(write(skill), false).cause, 'protected');
    const revoke = p.allowWriteOf(skill, 'generating skill "api" in this run');
    const verdict = p.evaluate(write(skill), false);
    assert.equal(verdict.decision, 'allow');
    assert.equal(verdict.reason, '.agentcli/skills/api/SKILL.md: allowed for generating skill "api" in this run');
    assert.equal(p.evaluate(write('/w/project/.agentcli/skills/api/other.md'), false).cause, 'protected', 'a neighbour stays protected');
    assert.equal(p.evaluate(write('/w/project/.agentcli/config.json'), false).cause, 'protected');
    assert.equal(p.evaluate({ ruleTool: 'Bash', command: `echo x > ${skill}`, description: 'echo' }, false).cause, 'protected', 'only the Write tools');
    revoke();
    assert.equal(p.evaluate(write(skill), false).cause, 'protected');
  });

  it('deny and ask rules still apply', () => {
    const denied = policy({ deny: ['Write(.agentcli/**)'] });
    denied.allowWriteOf(skill, 'x');
    assert.equal(denied.evaluate(write(skill), false).decision, 'deny');
    const asks = policy({ ask: ['Write(**/SKILL.md)'] });
    asks.allowWriteOf(skill, 'x');
    assert.equal(asks.evaluate(write(skill), false).cause, 'ask-rule');
  });
});
