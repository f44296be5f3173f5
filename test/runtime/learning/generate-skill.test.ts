import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../../helpers/temp-dir';
import { checkGenerateRequest, generatedSkillPath } from '../../../src/runtime/learning/generate-skill';
import { fixture, writeTree } from './fixtures';

describe('learning: generateSkill requests', () => {
  const home = makeTempDir('agentcli-home-');
  const check = (cwd: string, name: string, description = 'what it teaches', scope: 'project' | 'user' = 'project') => () =>
    checkGenerateRequest({ name, description, scope }, cwd, home);

  it('names: lower-case letters, digits and "-", at most 64, not starting with "-"', () => {
    const cwd = fixture({});
    for (const ok of ['a', 'api-testing', '0-day', 'x'.repeat(64)]) assert.doesNotThrow(check(cwd, ok));
    for (const bad of ['', '-lead', 'Upper', 'with space', 'dot.name', '../up', 'x'.repeat(65)]) {
      assert.throws(check(cwd, bad), /is not a valid skill name: use lower-case letters, digits and "-"/, bad);
    }
    assert.throws(check(cwd, 'ok', '   '), /"description" is empty/);
  });

  it('refuses an existing skill (project or user) unless it is a learned one', () => {
    const cwd = fixture({ '.agentcli/skills/api.md': '# API\n', '.agentcli/skills/learned-docker/SKILL.md': '# D\n' });
    writeTree(home, { '.agentcli/skills/mine/SKILL.md': '# mine\n' });
    assert.throws(check(cwd, 'api'), /a project skill "api" exists already \(.*api\.md\): choose another name/);
    assert.throws(check(cwd, 'mine', 'x', 'project'), /a user skill "mine" exists already/);
    assert.doesNotThrow(check(cwd, 'learned-docker'));
    assert.equal(generatedSkillPath({ name: 'x', scope: 'user' }, cwd, home), path.join(home, '.agentcli', 'skills', 'x', 'SKILL.md'));
  });

  it('refuses to write through a symlinked skills folder', () => {
    const cwd = fixture({});
    mkdirSync(path.join(cwd, '.agentcli'));
    symlinkSync(makeTempDir('agentcli-elsewhere-'), path.join(cwd, '.agentcli', 'skills'));
    assert.throws(check(cwd, 'api-testing'), /skills is a symlink: a generated skill is not written through it/);
  });
});
