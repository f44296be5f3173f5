import * as assert from 'node:assert/strict';
import { ConfigError } from '../../../src/runtime/config/errors';
import { loadConfig } from '../../../src/runtime/config/load';
import { tempLayout, writeJson, writeText, type TempLayout } from './helpers';

describe('loadConfig', () => {
  let t: TempLayout;
  beforeEach(() => {
    t = tempLayout();
  });
  afterEach(() => t.cleanup());

  const load = (env: NodeJS.ProcessEnv = {}, bare = false) => loadConfig({ cwd: t.cwd, home: t.home, env, bare });

  it('gives defaults when no file exists', () => {
    const loaded = load();
    assert.deepEqual(loaded.files, []);
    assert.equal(loaded.config.provider, 'serviceai');
    assert.equal(loaded.userFile, t.userFile);
    assert.equal(loaded.projectFile, t.projectFile);
  });

  it('lets the project file override the user file, deeply, and concatenates rule lists', () => {
    writeJson(t.userFile, {
      provider: 'localrunner',
      localrunner: { model: 'user-model', numCtx: 8192 },
      permissions: { allow: ['Bash(ls:*)'], deny: ['Read(secrets/**)'] },
      otherTool: { keep: true },
    });
    writeJson(t.projectFile, {
      localrunner: { model: 'project-model' },
      permissions: { allow: ['Bash(npm test:*)', 'Bash(ls:*)'] },
    });
    const { config, files } = load();
    assert.deepEqual(files, [t.userFile, t.projectFile]);
    assert.equal(config.provider, 'localrunner');
    assert.equal(config.localrunner.model, 'project-model');
    assert.equal(config.localrunner.numCtx, 8192);
    assert.deepEqual(config.permissions.allow, ['Bash(ls:*)', 'Bash(npm test:*)']);
    assert.deepEqual(config.permissions.deny, ['Read(secrets/**)']);
    assert.deepEqual((config as Record<string, unknown>).otherTool, { keep: true });
  });

  it('names the file, the dotted key, the expectation and the value on a bad value', () => {
    writeJson(t.userFile, { localrunner: { temperature: 3 } });
    assert.throws(() => load(), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.message, `${t.userFile}: "localrunner.temperature" must be a number from 0 to 1 (got 3)`);
      return true;
    });
  });

  it('names the project file when the error is there', () => {
    writeJson(t.userFile, { provider: 'localrunner' });
    writeJson(t.projectFile, { permissions: { allow: ['Bash(npm test'] } });
    assert.throws(() => load(), (error: Error) => {
      assert.ok(error.message.startsWith(`${t.projectFile}: "permissions.allow[0]" is not a valid rule`));
      assert.match(error.message, /Tool\(pattern\)/);
      assert.match(error.message, /\(got "Bash\(npm test"\)$/);
      return true;
    });
  });

  it('reports invalid JSON with file, line and column', () => {
    writeText(t.userFile, '{\n  "provider": "localrunner",\n}\n');
    assert.throws(() => load(), {
      name: 'ConfigError',
      message: `${t.userFile}: invalid JSON at line 3, column 1: expected a property name (trailing commas are not allowed) but found "}"`,
    });
    writeText(t.userFile, '{"a": }');
    assert.throws(() => load(), { message: `${t.userFile}: invalid JSON at line 1, column 7: expected a value (string, number, object, array, true, false or null) but found "}"` });
    writeText(t.userFile, '[1, 2]');
    assert.throws(() => load(), { message: /must be a JSON object/ });
  });

  it('never echoes a secret in an error', () => {
    writeJson(t.userFile, { vendorapi: { apiKey: 42 } });
    assert.throws(() => load(), { message: `${t.userFile}: "vendorapi.apiKey" must be a string (got a number)` });
  });

  it('applies the environment over both files', () => {
    writeJson(t.userFile, { provider: 'localrunner', cloudhub: { apiKey: 'file-key', deploymentName: 'file-dep' } });
    const { config } = load({
      SERVICE_PROVIDER: 'cloudhub',
      SERVICE_MODEL: 'moa',
      SERVICE_AI_API_KEY: 'second-key',
      SERVICE_BASE_URL: 'http://127.0.0.1:9999',
      SERVICE_DEBUG: 'true',
      CLOUDHUB_KEY: 'env-key',
      CLOUDHUB_ENDPOINT: 'https://res.example.test',
      CLOUDHUB_DEPLOYMENT: 'env-dep',
      CLOUDHUB_API_VERSION: '2025-01-01',
      CLOUDHUB_TENANT_ID: 'tenant',
      CLOUDHUB_CLIENT_ID: 'client',
      CLOUDHUB_CLIENT_SECRET: 'secret',
    });
    assert.equal(config.provider, 'cloudhub');
    assert.equal(config.model, 'moa');
    assert.equal(config.serviceai.apiKey, 'second-key');
    assert.equal(config.serviceai.baseUrl, 'http://127.0.0.1:9999');
    assert.equal(config.debug, true);
    assert.deepEqual(
      [config.cloudhub.apiKey, config.cloudhub.baseUrl, config.cloudhub.deploymentName, config.cloudhub.apiVersion],
      ['env-key', 'https://res.example.test', 'env-dep', '2025-01-01'],
    );
    assert.deepEqual([config.cloudhub.tenantId, config.cloudhub.clientId, config.cloudhub.clientSecret], ['tenant', 'client', 'secret']);
  });

  it('prefers SERVICE_API_KEY over SERVICE_AI_API_KEY', () => {
    const { config } = load({ SERVICE_API_KEY: 'first', SERVICE_AI_API_KEY: 'second' });
    assert.equal(config.serviceai.apiKey, 'first');
  });

  it('rejects a bad SERVICE_PROVIDER or SERVICE_BASE_URL naming the variable', () => {
    assert.throws(() => load({ SERVICE_PROVIDER: 'nope' }), {
      message: 'SERVICE_PROVIDER must be one of serviceai, localrunner, ggufserver, vendorapi, cloudhub (got "nope")',
    });
    assert.throws(() => load({ SERVICE_BASE_URL: 'not a url' }), {
      message: 'environment variable SERVICE_BASE_URL: "serviceai.baseUrl" must be an http:// or https:// URL, e.g. "http://localhost:8080" (got "not a url")',
    });
  });

  it('uses LOCALRUNNER_HOST unless a file sets localrunner.baseUrl to another address than the default', () => {
    assert.equal(load({ LOCALRUNNER_HOST: '127.0.0.1:12345' }).config.localrunner.baseUrl, 'http://127.0.0.1:12345');
    assert.equal(load({}).config.localrunner.baseUrl, 'http://localhost:11434');
    writeJson(t.userFile, { localrunner: { baseUrl: 'http://localhost:11434/' } });
    assert.equal(load({ LOCALRUNNER_HOST: 'http://other:1' }).config.localrunner.baseUrl, 'http://other:1', 'the default written in a file');
    writeJson(t.projectFile, { localrunner: { baseUrl: 'http://runner.local:11434' } });
    assert.equal(load({ LOCALRUNNER_HOST: 'http://other:1' }).config.localrunner.baseUrl, 'http://runner.local:11434');
  });

  describe('VENDORAPI_API_KEY', () => {
    it('resolves a ${env:...} or $NAME reference at load time', () => {
      writeJson(t.userFile, { vendorapi: { apiKey: '${env:VENDORAPI_API_KEY}' } });
      assert.equal(load({ VENDORAPI_API_KEY: 'vk-123' }).config.vendorapi.apiKey, 'vk-123');
      writeJson(t.userFile, { vendorapi: { apiKey: '$VENDORAPI_API_KEY' } });
      assert.equal(load({ VENDORAPI_API_KEY: 'vk-456' }).config.vendorapi.apiKey, 'vk-456');
    });

    it('fills the key when the files have none, but never overrides a written key', () => {
      assert.equal(load({ VENDORAPI_API_KEY: 'vk-env' }).config.vendorapi.apiKey, 'vk-env');
      writeJson(t.userFile, { vendorapi: { apiKey: 'vk-file' } });
      assert.equal(load({ VENDORAPI_API_KEY: 'vk-env' }).config.vendorapi.apiKey, 'vk-file');
    });

    it('names the missing variable of a reference', () => {
      writeJson(t.userFile, { vendorapi: { apiKey: '${env:VENDORAPI_API_KEY}' } });
      assert.throws(() => load({}), {
        name: 'ConfigError',
        message: '"vendorapi.apiKey" refers to the environment variable VENDORAPI_API_KEY, which is not set; set VENDORAPI_API_KEY or write the value directly',
      });
    });
  });

  it('skips the project file when the host does not trust the folder (projectConfig: false)', () => {
    writeJson(t.userFile, { localrunner: { model: 'user' } });
    writeJson(t.projectFile, { provider: 'vendorapi', vendorapi: { baseUrl: 'https://elsewhere.example/v1' }, permissions: { allow: ['Bash(*)'] } });
    const { config, files } = loadConfig({ cwd: t.cwd, home: t.home, env: {}, projectConfig: false });
    assert.deepEqual(files, [t.userFile]);
    assert.equal(config.provider, 'serviceai');
    assert.equal(config.vendorapi.baseUrl, undefined);
    assert.deepEqual(config.permissions.allow, []);
    assert.equal(config.localrunner.model, 'user');
  });

  describe('bare mode', () => {
    it('skips the user file and keys in the project file; keys come from the environment', () => {
      writeJson(t.userFile, { provider: 'vendorapi', serviceai: { apiKey: 'stored' }, localrunner: { model: 'user' } });
      writeJson(t.projectFile, {
        localrunner: { model: 'project' },
        vendorapi: { apiKey: 'project-key', model: 'vendor-model' },
        cloudhub: { clientSecret: 'project-secret', tenantId: 'tenant' },
      });
      const { config, files } = load({ SERVICE_PROVIDER: 'serviceai', SERVICE_API_KEY: 'env-key' }, true);
      assert.deepEqual(files, [t.projectFile]);
      assert.equal(config.provider, 'serviceai');
      assert.equal(config.serviceai.apiKey, 'env-key');
      assert.equal(config.localrunner.model, 'project');
      assert.equal(config.vendorapi.apiKey, undefined);
      assert.equal(config.vendorapi.model, 'vendor-model');
      assert.equal(config.cloudhub.clientSecret, undefined);
      assert.equal(config.cloudhub.tenantId, 'tenant');
    });

    it('does not even parse a broken user file', () => {
      writeText(t.userFile, '{ broken');
      assert.equal(load({}, true).config.provider, 'serviceai');
      assert.throws(() => load({}, false), ConfigError);
    });
  });
});
