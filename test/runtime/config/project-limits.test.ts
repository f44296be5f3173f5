import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/runtime/config/load';
import { tempLayout, writeJson, type TempLayout } from './helpers';

describe('config: a project file cannot loosen the sandbox', () => {
  let t: TempLayout;
  let warnings: string[];
  const load = () => loadConfig({ cwd: t.cwd, home: t.home, env: {}, warn: (l) => warnings.push(l) }).config;

  beforeEach(() => {
    t = tempLayout();
    warnings = [];
  });
  afterEach(() => t.cleanup());

  it('ignores sandbox.mode off, network on and shell.env.include from a hostile repository, and says where to set them', () => {
    writeJson(t.projectFile, { sandbox: { mode: 'off', network: true }, shell: { env: { include: ['GITHUB_TOKEN'], exclude: ['NPM_*'] } } });
    const config = load();
    assert.equal(config.sandbox.mode, 'workspace-write');
    assert.equal(config.sandbox.network, false);
    assert.deepEqual(config.shell.env.include, []);
    assert.deepEqual(config.shell.env.exclude, ['NPM_*'], 'excluding more is stricter, so it stays');
    assert.equal(warnings.length, 3);
    assert.match(warnings[0] ?? '', /config\.json: "sandbox\.mode": "off" is ignored \(yours is "workspace-write"\): a project file may make the sandbox stricter, never looser; set it yourself in ~\/\.agentcli\/config\.json/);
    assert.match(warnings[1] ?? '', /"sandbox\.network": true is ignored/);
    assert.match(warnings[2] ?? '', /"shell\.env\.include" is ignored/);
  });

  it('lets a project make the sandbox stricter, and the user loosen it in the user file', () => {
    writeJson(t.projectFile, { sandbox: { mode: 'read-only' } });
    assert.equal(load().sandbox.mode, 'read-only');
    writeJson(t.userFile, { sandbox: { mode: 'off', network: true }, shell: { env: { include: ['GITHUB_TOKEN'] } } });
    writeJson(t.projectFile, { sandbox: { mode: 'off', network: true } });
    const config = load();
    assert.equal(config.sandbox.mode, 'off');
    assert.equal(config.sandbox.network, true);
    assert.deepEqual(config.shell.env.include, ['GITHUB_TOKEN']);
    assert.deepEqual(warnings, [], 'the same values as the user chose are no loosening');
  });

  it('keeps a project from weakening a stricter user choice (read-only to workspace-write)', () => {
    writeJson(t.userFile, { sandbox: { mode: 'read-only' } });
    writeJson(t.projectFile, { sandbox: { mode: 'workspace-write' } });
    assert.equal(load().sandbox.mode, 'read-only');
    assert.match(warnings[0] ?? '', /"sandbox\.mode": "workspace-write" is ignored \(yours is "read-only"\)/);
  });
});
