import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../../src/runtime/config/load';
import { defaultConfig } from '../../../src/runtime/config/schema';
import { getConfigValue, setConfigValue } from '../../../src/runtime/config/write';
import { readJson, tempLayout, writeJson, writeText, type TempLayout } from './helpers';

describe('setConfigValue / getConfigValue', () => {
  let t: TempLayout;
  beforeEach(() => {
    t = tempLayout();
  });
  afterEach(() => t.cleanup());

  it('creates the file and parses values by the schema type', async () => {
    await setConfigValue(t.userFile, 'localrunner.temperature', '0.5');
    await setConfigValue(t.userFile, 'localrunner.numCtx', '8192');
    await setConfigValue(t.userFile, 'localrunner.enabled', 'true');
    await setConfigValue(t.userFile, 'localrunner.keepAlive', '-1');
    await setConfigValue(t.userFile, 'provider', 'localrunner');
    await setConfigValue(t.userFile, 'model', '1234');
    await setConfigValue(t.userFile, 'permissions.allow', '["Bash(npm test:*)"]');
    assert.deepEqual(readJson(t.userFile), {
      localrunner: { temperature: 0.5, numCtx: 8192, enabled: true, keepAlive: '-1' },
      provider: 'localrunner',
      model: '1234',
      permissions: { allow: ['Bash(npm test:*)'] },
    });
  });

  it('rejects a value of the wrong type or range, naming the file and key, and leaves the file alone', async () => {
    writeJson(t.userFile, { provider: 'localrunner' });
    const before = fs.readFileSync(t.userFile, 'utf8');
    await assert.rejects(setConfigValue(t.userFile, 'localrunner.temperature', '3'), {
      message: `${t.userFile}: "localrunner.temperature" must be a number from 0 to 1 (got 3)`,
    });
    await assert.rejects(setConfigValue(t.userFile, 'localrunner.numCtx', 'lots'), {
      message: `${t.userFile}: "localrunner.numCtx" must be a positive integer (got "lots")`,
    });
    await assert.rejects(setConfigValue(t.userFile, 'debug', 'yes'), { message: /"debug" must be true or false \(got "yes"\)/ });
    await assert.rejects(setConfigValue(t.userFile, 'provider', 'mystery'), { message: /"provider" must be one of "serviceai"/ });
    await assert.rejects(setConfigValue(t.userFile, 'permissions.allow', '[Bash'), { message: /"permissions.allow" expects a JSON value/ });
    assert.equal(fs.readFileSync(t.userFile, 'utf8'), before);
  });

  it('lists valid keys and suggests the closest for an unknown key', async () => {
    await assert.rejects(setConfigValue(t.userFile, 'localrunner.numctx', '1'), (error: Error) => {
      assert.match(error.message, /^unknown config key "localrunner.numctx"\. Did you mean "localrunner.numCtx"\?/);
      assert.match(error.message, /Valid keys in "localrunner": enabled, baseUrl, model, contextLength, keepAlive, numCtx/);
      return true;
    });
    await assert.rejects(setConfigValue(t.userFile, 'providr', 'x'), { message: /Did you mean "provider"\?.*Valid keys at the top level: provider, model/ });
    await assert.rejects(setConfigValue(t.userFile, 'zzzzzzzz', 'x'), (error: Error) => !error.message.includes('Did you mean'));
    await assert.rejects(setConfigValue(t.userFile, 'provider.name', 'x'), { message: /"provider" is a single value/ });
    assert.equal(fs.existsSync(t.userFile), false);
  });

  it('keeps unknown keys and environment references already in the file', async () => {
    writeJson(t.userFile, { otherTool: { onEnd: 'notify' }, vendorapi: { apiKey: '${env:VENDORAPI_API_KEY}', custom: 1 } });
    await setConfigValue(t.userFile, 'vendorapi.model', 'vendor-model');
    assert.deepEqual(readJson(t.userFile), {
      otherTool: { onEnd: 'notify' },
      vendorapi: { apiKey: '${env:VENDORAPI_API_KEY}', custom: 1, model: 'vendor-model' },
    });
    const { config } = loadConfig({ cwd: t.cwd, home: t.home, env: { VENDORAPI_API_KEY: 'vk-live' } });
    assert.equal(config.vendorapi.apiKey, 'vk-live');
    assert.match(fs.readFileSync(t.userFile, 'utf8'), /\$\{env:VENDORAPI_API_KEY\}/);
  });

  it('writes atomically: no temp file is left and a symlinked config stays a symlink', async () => {
    const real = path.join(t.root, 'dotfiles', 'config.json');
    writeJson(real, { provider: 'serviceai' });
    fs.mkdirSync(path.dirname(t.userFile), { recursive: true });
    fs.symlinkSync(real, t.userFile);
    await setConfigValue(t.userFile, 'model', 'moa');
    assert.ok(fs.lstatSync(t.userFile).isSymbolicLink());
    assert.deepEqual(readJson(real), { provider: 'serviceai', model: 'moa' });
    assert.deepEqual(fs.readdirSync(path.dirname(real)), ['config.json']);
    assert.deepEqual(fs.readdirSync(path.dirname(t.userFile)), ['config.json']);
  });

  it('creates new config files readable by the owner only', async () => {
    await setConfigValue(t.userFile, 'serviceai.apiKey', 'sk-secret-value-1234');
    assert.equal(fs.statSync(t.userFile).mode & 0o777, 0o600);
  });

  it('refuses to write into a file that is not valid JSON', async () => {
    writeText(t.userFile, '{ "provider": ');
    await assert.rejects(setConfigValue(t.userFile, 'model', 'moa'), { message: new RegExp(`^${t.userFile}: invalid JSON at line 1`) });
    assert.equal(fs.readFileSync(t.userFile, 'utf8'), '{ "provider": ');
  });

  it('applies localrunner presets and rejects unknown ones with the list', async () => {
    await setConfigValue(t.userFile, 'localrunner.preset', '8gb-cpu');
    assert.deepEqual(readJson(t.userFile), { localrunner: { preset: '8gb-cpu', numCtx: 2048, keepAlive: '1m' } });
    await setConfigValue(t.userFile, 'localrunner.preset', '16gb-gpu');
    assert.deepEqual(readJson(t.userFile), { localrunner: { preset: '16gb-gpu', numCtx: 4096, keepAlive: '10m' } });
    await setConfigValue(t.userFile, 'localrunner.preset', '32gb-gpu');
    assert.deepEqual(readJson(t.userFile), { localrunner: { preset: '32gb-gpu', numCtx: 8192, keepAlive: '30m' } });
    await assert.rejects(setConfigValue(t.userFile, 'localrunner.preset', '64gb'), {
      message: /^unknown localrunner preset "64gb"; presets: 8gb-cpu \(8GB RAM, no GPU.*16gb-gpu.*32gb-gpu/,
    });
  });

  it('gets values by dotted key, including unknown keys kept in the config', () => {
    const config = { ...defaultConfig(), otherTool: { onEnd: 'x' } };
    assert.equal(getConfigValue(config, 'localrunner.numCtx'), 4096);
    assert.equal(getConfigValue(config, 'serviceai.apiKey'), undefined);
    assert.deepEqual(getConfigValue(config, 'permissions.allow'), []);
    assert.deepEqual(getConfigValue(config, 'otherTool'), { onEnd: 'x' });
    assert.throws(() => getConfigValue(config, 'ggufserver.topk'), { message: /Did you mean "ggufserver.topK"\?/ });
    assert.throws(() => getConfigValue(config, 'a..b'), { message: /not a config key/ });
  });
});
