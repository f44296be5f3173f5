import * as assert from 'node:assert/strict';
import { ConfigError } from '../../../src/runtime/config/errors';
import { loadConfig, unknownKeyWarnings } from '../../../src/runtime/config/load';
import { tempLayout, writeJson, type TempLayout } from './helpers';

describe('config files: unknown keys and rules that can never match', () => {
  let t: TempLayout;
  beforeEach(() => {
    t = tempLayout();
  });
  afterEach(() => t.cleanup());

  const load = () => {
    const warnings: string[] = [];
    const loaded = loadConfig({ cwd: t.cwd, home: t.home, env: {}, warn: (line) => warnings.push(line) });
    return { loaded, warnings };
  };

  it('warns once per unknown key with the file and a close known key, and keeps loading (the key is kept)', () => {
    writeJson(t.projectFile, { maxIteration: 5, localrunner: { tempreature: 0.5, model: 'm' }, $schema: 'x' });
    const { loaded, warnings } = load();
    assert.deepEqual(warnings, [
      `agentcli: ${t.projectFile}: unknown key "maxIteration" (kept, but agentcli does not use it); did you mean "maxIterations"?`,
      `agentcli: ${t.projectFile}: unknown key "localrunner.tempreature" (kept, but agentcli does not use it); did you mean "localrunner.temperature"?`,
    ]);
    assert.equal(loaded.config.maxIterations, 50);
    assert.equal((loaded.config as Record<string, unknown>).maxIteration, 5);
    assert.equal(loaded.config.localrunner.model, 'm');
  });

  it('lists the known keys when no key is close', () => {
    const [line] = unknownKeyWarnings('f.json', { permissions: { zzzzzzzzzz: true } });
    assert.match(line!, /^agentcli: f\.json: unknown key "permissions\.zzzzzzzzzz" .*; known keys in "permissions": allow, ask, deny, defaultMode, additionalDirectories$/);
  });

  it('known keys give no warning', () => {
    writeJson(t.userFile, { provider: 'localrunner', maxIterations: 3, permissions: { allow: ['Bash(ls:*)'] }, ggufserver: { topK: 2 } });
    assert.deepEqual(load().warnings, []);
  });

  it('a rule naming an unknown tool is an error naming the rule, the file and the known tools', () => {
    writeJson(t.projectFile, { permissions: { allow: ['Wrte(a.txt)'] } });
    assert.throws(() => load(), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.ok(error.message.startsWith(`${t.projectFile}: "permissions.allow[0]" is not a valid rule: "Wrte" is not a tool rules apply to`), error.message);
      assert.match(error.message, /did you mean Write\?/);
      assert.match(error.message, /known tools: Read, Write, Edit, MultiEdit, Bash, an editor tool editor_<name>, or Mcp\(<server>:<tool>\)/);
      assert.match(error.message, /\(got "Wrte\(a\.txt\)"\)$/);
      return true;
    });
  });

  it('rule tool names are case-insensitive for the built-ins, and editor tools are accepted', () => {
    writeJson(t.projectFile, { permissions: { allow: ['bash(ls:*)', 'edit(src/**)', 'editor_openFile'], deny: ['READ(secrets/**)'] } });
    assert.deepEqual(load().loaded.config.permissions.allow, ['bash(ls:*)', 'edit(src/**)', 'editor_openFile']);
  });
});
