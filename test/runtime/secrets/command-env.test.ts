import assert from 'node:assert/strict';
import { commandEnvironment, isWithheld } from '../../../src/runtime/secrets/command-env';

describe('the environment commands get', () => {
  const source = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    SERVICE_API_KEY: 'sk-service-1234567890',
    SERVICE_AI_API_KEY: 'sk-serviceai-1234567890',
    VENDORAPI_API_KEY: 'sk-vendor-1234567890',
    CLOUDHUB_ENDPOINT: 'https://hub.example',
    CLOUDHUB_CLIENT_SECRET: 'cloud-secret-value',
    GITHUB_TOKEN: 'ghp_abcdefghijklmnop',
    npm_config_password: 'hunter22hunter22',
    MY_SECRET_THING: 'x',
    Api_Key_Lowercase: 'y',
    NPM_CONFIG_REGISTRY: 'https://registry.example',
    LANG: 'C.UTF-8',
  };
  const none = { include: [], exclude: [] };

  it('leaves out the provider keys, every CLOUDHUB_ variable and names with KEY, TOKEN, SECRET or PASSWORD', () => {
    const { env, withheld } = commandEnvironment(source, none);
    assert.deepEqual(Object.keys(env).sort(), ['HOME', 'LANG', 'NPM_CONFIG_REGISTRY', 'PATH']);
    assert.deepEqual(withheld, [
      'Api_Key_Lowercase',
      'CLOUDHUB_CLIENT_SECRET',
      'CLOUDHUB_ENDPOINT',
      'GITHUB_TOKEN',
      'MY_SECRET_THING',
      'SERVICE_AI_API_KEY',
      'SERVICE_API_KEY',
      'VENDORAPI_API_KEY',
      'npm_config_password',
    ]);
  });

  it('include re-admits a name or glob, but never the runtime provider credentials', () => {
    const { env } = commandEnvironment(source, { include: ['GITHUB_TOKEN', 'npm_*', 'VENDORAPI_API_KEY', 'CLOUDHUB_*'], exclude: [] });
    assert.equal(env.GITHUB_TOKEN, source.GITHUB_TOKEN);
    assert.equal(env.npm_config_password, source.npm_config_password);
    assert.equal(env.VENDORAPI_API_KEY, undefined);
    assert.equal(env.CLOUDHUB_ENDPOINT, undefined);
  });

  it('exclude removes more (globs match case-insensitively, ? is one character)', () => {
    const { env } = commandEnvironment(source, { include: [], exclude: ['npm_config_*', 'LAN?'] });
    assert.equal(env.NPM_CONFIG_REGISTRY, undefined);
    assert.equal(env.LANG, undefined);
    assert.equal(env.PATH, '/usr/bin');
    assert.equal(isWithheld('HOME', { include: [], exclude: ['HOME'] }), true);
    assert.equal(isWithheld('HOMEDIR', { include: [], exclude: ['HOME'] }), false);
  });
});
