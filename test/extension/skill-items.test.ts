import assert from 'node:assert/strict';
import path from 'node:path';
import { SKILL_NAME_RULE } from '../../src/protocol/learning';
import { generateRefusal, learnSummary, recommendationItems, skillNameProblem, skillsFolderOf } from '../../src/extension/skills/skill-items';

describe('extension: skill items', () => {
  it('shows each recommendation with its score in per cent, its reasons, and "installed"; only new ones are pre-checked', () => {
    const items = recommendationItems([
      { name: 'node-testing-mocha', title: 'Testing with mocha', score: 0.816, reasons: ['devDependency mocha', 'npm script "test" runs mocha'], installed: false },
      { name: 'typescript-project', title: 'TypeScript project', score: 0.5, reasons: [], installed: true },
    ]);
    assert.deepEqual(items, [
      { label: 'Testing with mocha', description: '82 %', detail: 'devDependency mocha; npm script "test" runs mocha', picked: true, name: 'node-testing-mocha' },
      { label: 'TypeScript project', description: '50 % · installed', detail: 'no specific reason given', picked: false, name: 'typescript-project' },
    ]);
  });

  it('validates a skill name with the rule in the message', () => {
    assert.equal(skillNameProblem('api-testing'), undefined);
    assert.equal(skillNameProblem('API testing'), `Not a valid skill name: ${SKILL_NAME_RULE}.`);
    assert.equal(skillNameProblem('-x'), `Not a valid skill name: ${SKILL_NAME_RULE}.`);
    assert.equal(skillNameProblem(''), `Enter a name: ${SKILL_NAME_RULE}.`);
    assert.ok(skillNameProblem('a'.repeat(65)));
  });

  it('summarises a learning pass and finds its skills folder', () => {
    const dir = path.join('/p', '.agentcli', 'skills');
    const result = {
      written: [
        { name: 'learned-a', path: path.join(dir, 'learned-a', 'SKILL.md'), status: 'created' as const },
        { name: 'learned-b', path: path.join(dir, 'learned-b', 'SKILL.md'), status: 'updated' as const },
        { name: 'learned-c', path: path.join(dir, 'learned-c', 'SKILL.md'), status: 'unchanged' as const },
      ],
      skipped: [{ name: 'learned-d', path: path.join(dir, 'learned-d', 'SKILL.md'), reason: 'edited since agentcli wrote it' }],
    };
    assert.equal(learnSummary(result), 'Learned 2 skills (1 already up to date); skipped 1: edited since agentcli wrote it.');
    assert.equal(skillsFolderOf(result), dir);
    assert.equal(learnSummary({ written: [result.written[0]!], skipped: [] }), 'Learned 1 skill.');
    const two = { written: [], skipped: [{ name: 'x', path: 'p', reason: 'r1' }, { name: 'y', path: 'p', reason: 'r2' }] };
    assert.equal(learnSummary(two), 'Learned 0 skills; skipped 2: x: r1; y: r2.');
    assert.equal(skillsFolderOf({ written: [], skipped: [] }), undefined);
  });

  it('turns a refused generateSkill into a sentence, with a button where one helps', () => {
    assert.deepEqual(generateRefusal('run', 'a run is active', 'x').button, { title: 'Stop', command: 'agentcli.stop' });
    assert.deepEqual(generateRefusal('batch', 'a batch is pending', 'x').button, { title: 'Review Changes', command: 'agentcli.reviewChanges' });
    const taken = generateRefusal(undefined, 'invalid params for generateSkill: a project skill "api" exists already (/p/.agentcli/skills/api.md): choose another name, or edit that file', 'api');
    assert.deepEqual(taken, { message: 'A project skill named "api" exists already: choose another name, or edit that skill\'s file.' });
    const plan = generateRefusal(undefined, 'generateSkill does not run in plan mode: turn it off first (setPlanMode with enabled: false)', 'x');
    assert.doesNotMatch(plan.message, /setPlanMode/);
    assert.equal(plan.button?.command, 'agentcli.togglePlanMode');
    assert.equal(generateRefusal(undefined, 'invalid params for generateSkill: /p/x is a symlink: make it a real folder.', 'x').message, 'The skill could not be generated: /p/x is a symlink: make it a real folder.');
  });
});
