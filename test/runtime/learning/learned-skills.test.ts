import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../../helpers/temp-dir';
import { updateLearnedSkills, type LearningProgress } from '../../../src/runtime/learning/learned-skills';
import { listSkills } from '../../../src/runtime/learning/skill-dirs';
import { fixture, TS_MOCHA, writeTree } from './fixtures';

const skill = (root: string, name: string) => path.join(root, '.agentcli', 'skills', name, 'SKILL.md');

describe('learning: updateLearnedSkills', () => {
  it('writes the learned skills with the project facts, emits progress, and never touches a skill the user wrote', async () => {
    const cwd = fixture({ ...TS_MOCHA, '.agentcli/skills/my-notes.md': '# Mine\nkeep me\n', '.agentcli/skills/typescript-project/SKILL.md': '# Also mine\n' });
    const home = makeTempDir('agentcli-home-');
    const events: LearningProgress[] = [];
    const result = await updateLearnedSkills({ scope: 'project', cwd, home, progress: (p) => events.push(p) });
    assert.deepEqual(result.written.map((w) => [w.name, w.status, w.path]), [
      ['learned-node-testing-mocha', 'created', skill(cwd, 'learned-node-testing-mocha')],
      ['learned-typescript-project', 'created', skill(cwd, 'learned-typescript-project')],
    ]);
    assert.deepEqual(result.skipped, []);
    assert.deepEqual(events, [
      { phase: 'scanning', done: 0, total: 0 },
      { phase: 'writing', done: 0, total: 2, skill: 'learned-node-testing-mocha' },
      { phase: 'writing', done: 1, total: 2, skill: 'learned-typescript-project' },
      { phase: 'done', done: 2, total: 2 },
    ]);
    const text = readFileSync(skill(cwd, 'learned-node-testing-mocha'), 'utf8');
    assert.match(text, /^---\nname: learned-node-testing-mocha\ndescription: Testing with mocha for calc/);
    assert.ok(text.includes('- Test: `npm test` (runs `mocha "test/**/*.test.ts"`).'), text);
    assert.ok(text.includes('- Build: `npm run build` (runs `tsc -p .`).'), text);
    assert.ok(text.includes('- Languages (source files): TypeScript 4, JavaScript 1.'), text);
    assert.ok(text.includes('- devDependency mocha ^10.2.0'), text);
    assert.equal(readFileSync(path.join(cwd, '.agentcli/skills/my-notes.md'), 'utf8'), '# Mine\nkeep me\n');
    assert.equal(readFileSync(skill(cwd, 'typescript-project'), 'utf8'), '# Also mine\n');
    const manifest = JSON.parse(readFileSync(path.join(cwd, '.agentcli/skills/learned.json'), 'utf8'));
    assert.deepEqual(Object.keys(manifest.skills), ['learned-node-testing-mocha', 'learned-typescript-project']);
    assert.deepEqual(listSkills(cwd, home).map((s) => [s.name, s.learned, s.description]), [
      ['learned-node-testing-mocha', true, 'Testing with mocha for calc (learned from the project by agentcli)'],
      ['learned-typescript-project', true, 'TypeScript project conventions for calc (learned from the project by agentcli)'],
      ['my-notes', false, 'Mine'],
      ['typescript-project', false, 'Also mine'],
    ]);
  });

  it('writes only the chosen recommendations and reports a chosen name that is not recommended as skipped', async () => {
    const cwd = fixture(TS_MOCHA);
    const home = makeTempDir('agentcli-home-');
    const result = await updateLearnedSkills({ scope: 'project', cwd, home, names: ['typescript-project', 'rust-crate'] });
    assert.deepEqual(result.written.map((w) => [w.name, w.status]), [['learned-typescript-project', 'created']]);
    assert.deepEqual(result.skipped.map((s) => [s.name, s.reason]), [['learned-rust-crate', 'not recommended for this project now']]);
    assert.equal(existsSync(skill(cwd, 'learned-node-testing-mocha')), false);
  });

  it('refreshes learned files nobody edited, skips edited ones and learned-named files it did not write', async () => {
    const cwd = fixture(TS_MOCHA);
    const home = makeTempDir('agentcli-home-');
    await updateLearnedSkills({ scope: 'project', cwd, home });
    const again = await updateLearnedSkills({ scope: 'project', cwd, home });
    assert.deepEqual(again.written.map((w) => w.status), ['unchanged', 'unchanged']);

    const pkg = JSON.parse(TS_MOCHA['package.json']!);
    pkg.scripts.test = 'mocha --parallel "test/**/*.test.ts"';
    writeFileSync(path.join(cwd, 'package.json'), JSON.stringify(pkg));
    const edited = '# My own TypeScript notes\n';
    writeFileSync(skill(cwd, 'learned-typescript-project'), edited);
    const refreshed = await updateLearnedSkills({ scope: 'project', cwd, home });
    assert.deepEqual(refreshed.written.map((w) => [w.name, w.status]), [['learned-node-testing-mocha', 'updated']]);
    assert.deepEqual(refreshed.skipped.map((s) => [s.name, s.reason]), [
      ['learned-typescript-project', 'edited since agentcli wrote it; your edits are kept (remove the file to learn it anew)'],
    ]);
    assert.equal(readFileSync(skill(cwd, 'learned-typescript-project'), 'utf8'), edited);
    assert.match(readFileSync(skill(cwd, 'learned-node-testing-mocha'), 'utf8'), /mocha --parallel/);

    const other = fixture({ ...TS_MOCHA, '.agentcli/skills/learned-typescript-project/SKILL.md': '# hand-made\n' });
    const r = await updateLearnedSkills({ scope: 'project', cwd: other, home });
    assert.deepEqual(r.skipped.map((s) => [s.name, s.reason]), [['learned-typescript-project', 'not written by agentcli (no entry in learned.json); it is left as is']]);
    assert.equal(readFileSync(skill(other, 'learned-typescript-project'), 'utf8'), '# hand-made\n');
  });

  it('the user scope writes to ~/.agentcli/skills; a symlinked skills folder is refused', async () => {
    const cwd = fixture(TS_MOCHA);
    const home = makeTempDir('agentcli-home-');
    const r = await updateLearnedSkills({ scope: 'user', cwd, home });
    assert.deepEqual(r.written.map((w) => w.path), [skill(home, 'learned-node-testing-mocha'), skill(home, 'learned-typescript-project')]);
    assert.equal(existsSync(path.join(cwd, '.agentcli')), false);

    const hostile = fixture(TS_MOCHA);
    const elsewhere = makeTempDir('agentcli-elsewhere-');
    mkdirSync(path.join(hostile, '.agentcli'));
    symlinkSync(elsewhere, path.join(hostile, '.agentcli', 'skills'));
    await assert.rejects(updateLearnedSkills({ scope: 'project', cwd: hostile, home }), /skills is a symlink: learned skills are not written through it/);
    const linkedSkill = fixture(TS_MOCHA);
    writeTree(linkedSkill, { '.agentcli/skills/.keep': '' });
    symlinkSync(elsewhere, path.join(linkedSkill, '.agentcli', 'skills', 'learned-typescript-project'));
    const s = await updateLearnedSkills({ scope: 'project', cwd: linkedSkill, home });
    assert.deepEqual(s.skipped.map((x) => [x.name, x.reason]), [['learned-typescript-project', 'it is a symlink; learned skills are written only as real files']]);
    assert.equal(existsSync(path.join(elsewhere, 'SKILL.md')), false);
  });
});
