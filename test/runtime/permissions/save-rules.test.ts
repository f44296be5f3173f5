import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { saveAllowRules } from '../../../src/runtime/permissions/save-rules';
import { readJson, tempLayout, writeJson, type TempLayout } from '../config/helpers';

describe('saveAllowRules', () => {
  let t: TempLayout;
  beforeEach(() => {
    t = tempLayout();
  });
  afterEach(() => t.cleanup());

  it('creates the project file with the rules', async () => {
    await saveAllowRules(t.projectFile, ['Bash(npm test:*)']);
    assert.deepEqual(readJson(t.projectFile), { permissions: { allow: ['Bash(npm test:*)'] } });
  });

  it('appends without duplicates and keeps everything else', async () => {
    writeJson(t.projectFile, { provider: 'localrunner', permissions: { allow: ['Bash(ls:*)'], deny: ['Read(.env)'] }, otherTool: 1 });
    await saveAllowRules(t.projectFile, ['Bash(ls:*)', 'Write(src/**)', 'Write(src/**)']);
    assert.deepEqual(readJson(t.projectFile), {
      provider: 'localrunner',
      permissions: { allow: ['Bash(ls:*)', 'Write(src/**)'], deny: ['Read(.env)'] },
      otherTool: 1,
    });
  });

  it('rejects a bad rule before touching the file', async () => {
    writeJson(t.projectFile, { permissions: { allow: [] } });
    const before = fs.readFileSync(t.projectFile, 'utf8');
    await assert.rejects(saveAllowRules(t.projectFile, ['Bash(npm']), /invalid permission rule "Bash\(npm"/);
    assert.equal(fs.readFileSync(t.projectFile, 'utf8'), before);
  });
});
