import { strict as assert } from 'node:assert';
import { parseModelSelector } from '../../../src/runtime/providers/create-provider';

describe('parseModelSelector', () => {
  it('splits a known provider id from the model', () => {
    assert.deepEqual(parseModelSelector('serviceai/fantail'), { provider: 'serviceai', model: 'fantail' });
    assert.deepEqual(parseModelSelector('ggufserver/qwen2.5-coder-7b-q4_k_m'), { provider: 'ggufserver', model: 'qwen2.5-coder-7b-q4_k_m' });
    assert.deepEqual(parseModelSelector(' cloudhub/my-deployment '), { provider: 'cloudhub', model: 'my-deployment' });
  });

  it('keeps bare ids and ids whose prefix is not a provider whole', () => {
    assert.deepEqual(parseModelSelector('fantail'), { model: 'fantail' });
    assert.deepEqual(parseModelSelector('org-name/model-7b'), { model: 'org-name/model-7b' });
    assert.deepEqual(parseModelSelector('vendorapi/org/model'), { provider: 'vendorapi', model: 'org/model' });
    assert.deepEqual(parseModelSelector('serviceai/'), { model: 'serviceai/' });
  });
});
