import assert from 'node:assert/strict';
import { EventErrorCodes } from '../../../src/protocol';
import { toEventError } from '../../../src/runtime/agent/errors';
import { PromptSetupError } from '../../../src/runtime/agent/system-prompt';
import { ConfigError } from '../../../src/runtime/config/errors';
import { ProviderError } from '../../../src/runtime/providers/types';

describe('toEventError', () => {
  it('keeps the code and remedy of a provider error', () => {
    const info = toEventError(new ProviderError('rate_limited', 'slow down', 'wait a minute', 429));
    assert.deepEqual(info, { code: 'rate_limited', message: 'slow down', remedy: 'wait a minute' });
  });

  it('maps configuration and prompt-setup errors to config_error', () => {
    assert.equal(toEventError(new ConfigError('"provider" must be one of …')).code, 'config_error');
    assert.equal(toEventError(new PromptSetupError('--sys-prompt: no file ./x.md')).code, 'config_error');
  });

  it('maps a Node error with its own code (ENOENT) and anything else to internal', () => {
    const enoent = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    assert.deepEqual(toEventError(enoent), { code: 'internal', message: 'ENOENT: no such file' });
    assert.equal(toEventError(Object.assign(new Error('x'), { code: 'tool_error' })).code, 'internal'); // by class, not by shape
    assert.deepEqual(toEventError('a string'), { code: 'internal', message: 'a string' });
    for (const e of [enoent, 'a string', null, { code: 42 }]) assert.ok(EventErrorCodes.includes(toEventError(e).code));
  });
});
