import assert from 'node:assert/strict';
import { RpcErrorCode, RpcErrorData } from '../../../src/protocol';
import { makeWorkspace, useStubbedRuntime } from '../../helpers/runtime-process';

interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** The request fails with `code`; returns its validated `data`. */
async function rejectsWithData(request: Promise<unknown>, code: number): Promise<RpcErrorData> {
  let data: RpcErrorData | undefined;
  await assert.rejects(request, (e: WireError) => {
    assert.equal(e.code, code, e.message);
    data = RpcErrorData.parse(e.data);
    return true;
  });
  return data!;
}

describe('runtime rpc: errors carry the setting that fixes them', () => {
  const t = useStubbedRuntime();

  it('listModels for serviceai without an address: data names serviceai.baseUrl; the message keeps the CLI wording', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    let message = '';
    const data = await rejectsWithData(
      rt.request('listModels', { provider: 'serviceai' }).catch((e: WireError) => {
        message = e.message;
        throw e;
      }),
      RpcErrorCode.ProviderError,
    );
    assert.deepEqual(data.fix, { action: 'set_base_url', configKey: 'serviceai.baseUrl' });
    assert.equal(data.code, 'config_error');
    assert.match(data.message, /^serviceai\.baseUrl is not set/);
    assert.match(message, /agentcli config set serviceai\.baseUrl/, 'the terminal wording stays for the CLI');
  });

  it('a dry run tries settings without applying them: the next missing one is named, then the models are listed', async () => {
    t.stub.setModels(['m-one', 'm-two']);
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    const noKey = await rejectsWithData(rt.request('listModels', { provider: 'vendorapi', config: { vendorapi: { baseUrl: t.stub.url } } }), RpcErrorCode.ProviderError);
    assert.deepEqual(noKey.fix, { action: 'set_key', configKey: 'vendorapi.apiKey' });
    const listed = await rt.request('listModels', { provider: 'vendorapi', config: { vendorapi: { baseUrl: t.stub.url, apiKey: 'k-try', model: 'm-two' } } });
    assert.deepEqual(listed.models.map((m) => m.id), ['m-one', 'm-two']);
    assert.equal(listed.current, 'm-two', 'the model the tried settings name');
    const state = await rt.request('getState', {});
    assert.equal(state.provider, 'ggufserver', 'nothing was applied');
    await assert.rejects(rt.request('listModels', { provider: 'vendorapi' }), /vendorapi\.apiKey is not set/, 'the tried key was not kept');
  });

  it('a dry run with a wrong value is refused with the key to fix', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    const data = await rejectsWithData(rt.request('listModels', { provider: 'serviceai', config: { serviceai: { baseUrl: 'ftp://x' } } }), RpcErrorCode.ConfigError);
    assert.deepEqual(data.fix, { action: 'set_base_url', configKey: 'serviceai.baseUrl' });
    const bad = await rejectsWithData(rt.request('configure', { config: { ggufserver: { temperature: 5 } } }), RpcErrorCode.ConfigError);
    assert.deepEqual(bad.fix, { action: 'set_setting', configKey: 'ggufserver.temperature' });
  });

  it('a prompt that cannot reach the provider: the error event names the setting', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    await rt.request('configure', { config: { provider: 'serviceai' } });
    await rt.request('prompt', { message: 'hi' });
    const error = await rt.waitForEvent('error');
    assert.equal(error.code, 'config_error');
    assert.deepEqual(error.fix, { action: 'set_base_url', configKey: 'serviceai.baseUrl' });
    await rt.waitForEvent('agent_end');
  });
});
