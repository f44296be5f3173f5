import { strict as assert } from 'node:assert';
import { loadConfig } from '../../../src/runtime/config/load';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { startCloudHubStub } from '../../stubs/cloudhub-stub';
import type { OpenAIStub } from '../../stubs/openai-stub';
import { startServiceAiStub, type ServiceAiStub } from '../../stubs/serviceai-stub';
import { tempLayout, writeJson, type TempLayout } from '../config/helpers';
import { chat, collect } from './helpers';

describe('environment overrides beat the config file (real requests)', () => {
  let t: TempLayout;
  let chatStub: OpenAIStub;
  let service: ServiceAiStub;
  beforeEach(async () => {
    t = tempLayout();
    // The deployment only exists, and the key only works, as the environment names them.
    chatStub = await startCloudHubStub({ deployments: ['env-dep'], apiKey: 'env-key-5678' });
    service = await startServiceAiStub();
  });
  afterEach(async () => {
    t.cleanup();
    await chatStub.close();
    await service.close();
  });

  const load = (env: NodeJS.ProcessEnv) => loadConfig({ cwd: t.cwd, home: t.home, env }).config;

  it('CLOUDHUB_KEY, CLOUDHUB_ENDPOINT, CLOUDHUB_DEPLOYMENT and CLOUDHUB_API_VERSION win over the file', async () => {
    writeJson(t.userFile, {
      provider: 'cloudhub',
      cloudhub: { resourceName: 'file-resource', deploymentName: 'file-dep', apiKey: 'file-key-1234', apiVersion: '2023-05-15' },
    });
    const cfg = load({
      CLOUDHUB_KEY: 'env-key-5678',
      CLOUDHUB_ENDPOINT: chatStub.origin,
      CLOUDHUB_DEPLOYMENT: 'env-dep',
      CLOUDHUB_API_VERSION: '2024-10-21',
    });
    chatStub.enqueue({ text: 'from env' });
    await collect(createProvider(cfg).streamChat(chat()));
    const req = chatStub.requests[0];
    assert.equal(req?.path, '/openai/deployments/env-dep/chat/completions');
    assert.equal(req?.query['api-version'], '2024-10-21');
    assert.equal(req?.headers['api-key'], 'env-key-5678');
  });

  it('SERVICE_PROVIDER, SERVICE_MODEL, SERVICE_BASE_URL and SERVICE_API_KEY win over the file', async () => {
    service.addKey('env-service-key', 'Pro');
    writeJson(t.userFile, { provider: 'ggufserver', model: 'fantail', serviceai: { baseUrl: 'http://127.0.0.1:9', apiKey: 'file-service-key' } });
    const cfg = load({ SERVICE_PROVIDER: 'serviceai', SERVICE_MODEL: 'serviceai/moa', SERVICE_BASE_URL: service.origin, SERVICE_API_KEY: 'env-service-key' });
    service.enqueueChat({ text: 'ok' });
    const p = createProvider(cfg);
    assert.deepEqual([p.id, p.model], ['serviceai', 'moa']);
    await collect(p.streamChat(chat()));
    assert.equal(service.requests[0]?.headers['authorization'], 'Bearer env-service-key');
    assert.equal(service.requests[0]?.body.model, 'moa');
  });

  it('SERVICE_API_KEY is preferred over SERVICE_AI_API_KEY when both are set', async () => {
    service.addKey('primary', 'Free');
    const cfg = load({ SERVICE_BASE_URL: service.origin, SERVICE_API_KEY: 'primary', SERVICE_AI_API_KEY: 'secondary' });
    await createProvider(cfg).listModels();
    assert.equal(service.requests[0]?.headers['authorization'], 'Bearer primary');
  });
});
