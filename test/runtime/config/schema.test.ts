import * as assert from 'node:assert/strict';
import { ConfigSchema, defaultConfig } from '../../../src/runtime/config/schema';

function messages(input: unknown): string[] {
  const result = ConfigSchema.safeParse(input);
  assert.equal(result.success, false, 'expected a validation failure');
  return result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('config schema', () => {
  it('applies the spec defaults', () => {
    const config = defaultConfig();
    assert.equal(config.provider, 'serviceai');
    assert.equal(config.serviceai.model, 'fantail');
    assert.equal(config.maxIterations, 50);
    assert.equal(config.commandTimeoutMs, 120000);
    assert.equal(config.loopType, 'react');
    assert.equal(config.debug, false);
    assert.deepEqual(
      { ...config.localrunner },
      { baseUrl: 'http://localhost:11434', model: 'llama3.2', keepAlive: '5m', numCtx: 4096, temperature: 0.7 },
    );
    assert.deepEqual(
      { ...config.ggufserver },
      { baseUrl: 'http://127.0.0.1:8080', contextSize: 4096, temperature: 0.7, topP: 0.9, topK: 40, repeatPenalty: 1.1, seed: -1 },
    );
    assert.deepEqual({ ...config.vendorapi }, { model: 'gpt-4.1', maxTokens: 4096, temperature: 0.7 });
    assert.deepEqual({ ...config.cloudhub }, { apiVersion: '2024-10-21', authMethod: 'api-key' });
    assert.deepEqual({ ...config.permissions }, { allow: [], ask: [], deny: [], additionalDirectories: [] });
  });

  it('fills defaults inside a partly written section and keeps unknown keys', () => {
    const config = ConfigSchema.parse({ localrunner: { model: 'coder:7b', extra: 1 }, otherTool: { onEnd: 'echo' } });
    assert.equal(config.localrunner.model, 'coder:7b');
    assert.equal(config.localrunner.numCtx, 4096);
    assert.equal((config.localrunner as Record<string, unknown>).extra, 1);
    assert.deepEqual((config as Record<string, unknown>).otherTool, { onEnd: 'echo' });
  });

  it('reports range and type errors with plain messages', () => {
    assert.deepEqual(messages({ localrunner: { temperature: 3 } }), ['localrunner.temperature: must be a number from 0 to 1']);
    assert.deepEqual(messages({ ggufserver: { temperature: 2.5 } }), ['ggufserver.temperature: must be a number from 0 to 2']);
    assert.deepEqual(messages({ maxIterations: 0 }), ['maxIterations: must be a positive integer']);
    assert.deepEqual(messages({ localrunner: { numCtx: 10.5 } }), ['localrunner.numCtx: must be a positive integer']);
    assert.deepEqual(messages({ debug: 'yes' }), ['debug: must be true or false']);
    assert.deepEqual(messages({ provider: 'other' }), [
      'provider: must be one of "serviceai", "localrunner", "ggufserver", "vendorapi", "cloudhub"',
    ]);
    assert.deepEqual(messages({ cloudhub: { authMethod: 'password' } }), [
      'cloudhub.authMethod: must be one of "api-key", "entra-id", "managed-identity"',
    ]);
    assert.deepEqual(messages({ serviceai: { baseUrl: 'ftp://host' } }), [
      'serviceai.baseUrl: must be an http:// or https:// URL, e.g. "http://localhost:8080"',
    ]);
  });

  it('accepts the four loop strategies and refuses another naming them; reflexion.maxRetries is bounded', () => {
    for (const loopType of ['react', 'plan-and-execute', 'parallel', 'reflexion']) assert.equal(ConfigSchema.parse({ loopType }).loopType, loopType);
    assert.deepEqual(messages({ loopType: 'other' }), ['loopType: must be one of "react", "plan-and-execute", "parallel", "reflexion"']);
    assert.equal(ConfigSchema.parse({}).reflexion.maxRetries, 2);
    assert.deepEqual(messages({ reflexion: { maxRetries: 11 } }), ['reflexion.maxRetries: must be an integer from 0 to 10']);
    assert.deepEqual(messages({ reflexion: { maxRetries: 1.5 } }), ['reflexion.maxRetries: must be an integer']);
  });

  it('accepts the keepAlive forms of the spec', () => {
    for (const keepAlive of ['0', '5m', '1h', '-1', '10m', '30m', '1m', 0, -1]) {
      assert.equal(ConfigSchema.parse({ localrunner: { keepAlive } }).localrunner.keepAlive, keepAlive);
    }
    assert.deepEqual(messages({ localrunner: { keepAlive: 'forever' } }), [
      'localrunner.keepAlive: must be "0", "-1" or a duration such as "5m", "10m", "1h"',
    ]);
    assert.equal(messages({ localrunner: { keepAlive: 5 } }).length, 1);
  });

  it('checks each permission rule with the rule parser', () => {
    const [message] = messages({ permissions: { allow: ['Bash(npm test:*)', 'Bash(ls'] } });
    assert.match(message ?? '', /^permissions\.allow\.1: is not a valid rule \(the pattern must end with "\)"\)/);
    assert.match(message ?? '', /Tool\(pattern\)/);
    assert.deepEqual(messages({ permissions: { defaultMode: 'yolo' } }), [
      'permissions.defaultMode: must be one of "interactive", "restricted", "unrestricted"',
    ]);
  });
});
