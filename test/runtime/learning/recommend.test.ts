import assert from 'node:assert/strict';
import { makeTempDir } from '../../helpers/temp-dir';
import { recommendSkills } from '../../../src/runtime/learning/recommend';
import { scanProject } from '../../../src/runtime/learning/signals';
import { fixture, GO_MODULE, MIXED, PY_PYTEST, TS_MOCHA, writeTree } from './fixtures';

const picks = (r: Awaited<ReturnType<typeof recommendSkills>>) => r.recommendations.map((x) => [x.name, x.score, x.reasons, x.installed]);

describe('learning: skill recommendations from project signals', () => {
  it('a TypeScript package tested with mocha: typescript and mocha, with the signals that led there', async () => {
    const r = await recommendSkills(fixture(TS_MOCHA), makeTempDir('agentcli-home-'));
    assert.deepEqual(picks(r), [
      ['node-testing-mocha', 1, ['devDependency mocha ^10.2.0', 'config file .mocharc.json', 'script "test": mocha "test/**/*.test.ts"'], false],
      ['typescript-project', 1, ['4 TypeScript files (80% of source files)', 'config file tsconfig.json', 'devDependency typescript ^5.4.0'], false],
    ]);
  });

  it('counts only files the ignore rules keep, outside vendored folders, and no declaration files', async () => {
    const s = await scanProject(fixture(TS_MOCHA));
    assert.deepEqual(Object.fromEntries(s.languages), { TypeScript: 4, JavaScript: 1 });
    assert.ok(!s.files.some((f) => f.startsWith('node_modules/') || f.startsWith('coverage/')), s.files.join(', '));
  });

  it('a Python project tested with pytest', async () => {
    const r = await recommendSkills(fixture(PY_PYTEST), makeTempDir('agentcli-home-'));
    assert.deepEqual(picks(r), [
      ['python-pytest', 1, ['pytest in pyproject.toml', 'config file tests/conftest.py', '1 test_*.py file'], false],
      ['python-project', 0.8, ['4 Python files (100% of source files)', 'config file pyproject.toml'], false],
      ['python-fastapi', 0.7, ['fastapi in pyproject.toml'], false],
    ]);
    const s = await scanProject(fixture(PY_PYTEST));
    assert.deepEqual([...s.python.keys()], ['fastapi', 'pydantic', 'pytest'], 'authors and table keys are not packages');
  });

  it('a Go module with CI and a Dockerfile', async () => {
    const r = await recommendSkills(fixture(GO_MODULE), makeTempDir('agentcli-home-'));
    assert.deepEqual(picks(r), [
      ['go-modules', 1, ['module file go.mod', '3 Go files (100% of source files)'], false],
      ['github-actions', 0.7, ['workflow .github/workflows/ci.yml'], false],
      ['docker', 0.6, ['file Dockerfile'], false],
    ]);
  });

  it('a mixed repository: a minority language stays below the threshold, an existing skill is marked installed', async () => {
    const r = await recommendSkills(fixture(MIXED), makeTempDir('agentcli-home-'));
    assert.deepEqual(picks(r), [
      ['node-testing-jest', 1, ['devDependency jest ^29.7.0', 'config file jest.config.js', 'script "test": jest'], false],
      ['react-components', 0.9, ['dependency react ^18.2.0', '3 .tsx/.jsx files'], true],
      ['node-http-api', 0.7, ['dependency express ^4.19.0'], false],
    ]);
  });

  it('a learned skill in the user folder also counts as installed; an empty folder has no recommendation', async () => {
    const home = writeTree(makeTempDir('agentcli-home-'), { '.agentcli/skills/learned-go-modules/SKILL.md': '# Go\n' });
    const r = await recommendSkills(fixture(GO_MODULE), home);
    assert.equal(r.recommendations.find((x) => x.name === 'go-modules')?.installed, true);
    assert.equal(r.recommendations.find((x) => x.name === 'docker')?.installed, false);
    const empty = await recommendSkills(makeTempDir('agentcli-empty-'), home);
    assert.deepEqual(empty.recommendations, []);
    assert.equal(empty.filesScanned, 0);
  });
});
