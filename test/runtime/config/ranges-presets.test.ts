import * as assert from 'node:assert/strict';
import { loadConfig } from '../../../src/runtime/config/load';
import { tempLayout, writeJson, type TempLayout } from './helpers';

describe('config value ranges (ggufserver sampling) and localrunner presets written into a file', () => {
  let t: TempLayout;
  beforeEach(() => {
    t = tempLayout();
  });
  afterEach(() => t.cleanup());

  const load = (env: NodeJS.ProcessEnv = {}) => loadConfig({ cwd: t.cwd, home: t.home, env }).config;

  it('ggufserver.repeatPenalty must be greater than 0', () => {
    for (const bad of [-3, 0]) {
      writeJson(t.userFile, { ggufserver: { repeatPenalty: bad } });
      assert.throws(() => load(), {
        message: `${t.userFile}: "ggufserver.repeatPenalty" must be a number greater than 0 (1 means no penalty; default 1.1) (got ${bad})`,
      });
    }
    writeJson(t.userFile, { ggufserver: { repeatPenalty: 1.3 } });
    assert.equal(load().ggufserver.repeatPenalty, 1.3);
  });

  it('ggufserver.seed is -1 (random) or a non-negative integer', () => {
    writeJson(t.userFile, { ggufserver: { seed: -2 } });
    assert.throws(() => load(), { message: /"ggufserver\.seed" must be an integer of -1 or more \(-1 means a random seed\) \(got -2\)/ });
    writeJson(t.userFile, { ggufserver: { seed: 1.5 } });
    assert.throws(() => load(), { message: /"ggufserver\.seed" must be an integer/ });
    for (const ok of [-1, 0, 42]) {
      writeJson(t.userFile, { ggufserver: { seed: ok } });
      assert.equal(load().ggufserver.seed, ok);
    }
  });

  it('a preset written directly into config.json applies its numCtx and keepAlive at load time', () => {
    writeJson(t.userFile, { provider: 'localrunner', localrunner: { preset: '8gb-cpu' } });
    const cfg = load();
    assert.deepEqual([cfg.localrunner.numCtx, cfg.localrunner.keepAlive], [2048, '1m']);
  });

  it('values set explicitly (in any file) win over the preset', () => {
    writeJson(t.userFile, { localrunner: { preset: '32gb-gpu' } });
    writeJson(t.projectFile, { localrunner: { keepAlive: '-1' } });
    const cfg = load();
    assert.deepEqual([cfg.localrunner.numCtx, cfg.localrunner.keepAlive], [8192, '-1']);
    writeJson(t.userFile, { localrunner: { preset: '16gb-gpu', numCtx: 3000 } });
    writeJson(t.projectFile, {});
    const again = load();
    assert.deepEqual([again.localrunner.numCtx, again.localrunner.keepAlive], [3000, '10m']);
  });

  it('an unknown preset in the file is reported with the known ones', () => {
    writeJson(t.userFile, { localrunner: { preset: '64gb' } });
    assert.throws(() => load(), { message: /"localrunner\.preset" is not a known preset; must be one of "8gb-cpu", "16gb-gpu", "32gb-gpu"/ });
  });
});
