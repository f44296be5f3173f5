import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { debugFetch, DEBUG_BODY_LIMIT } from '../../../src/runtime/debug/debug-fetch';
import { redactBody, SecretSet } from '../../../src/runtime/debug/redact';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { requestDecision } from '../../../src/runtime/decisions/client';
import { ProviderError } from '../../../src/runtime/providers/types';
import { startServiceAiStub, type ServiceAiStub } from '../../stubs/serviceai-stub';
import { startCloudHubStub } from '../../stubs/cloudhub-stub';
import type { OpenAIStub } from '../../stubs/openai-stub';
import { startIdentityStub } from '../../stubs/identity-stub';
import { makeWorkspace, startRuntime, testEnv, type RuntimeUnderTest } from '../../helpers/runtime-process';
import { ensureRuntimeBuilt } from '../../sdk/helpers';
import { chat, collect, config, FAST_RETRY, failureOf } from './helpers';

/** A key that must never appear in logs, events, files or error messages. */
const CANARY = 'sk-canary-7Q2xZ9-never-log-me';

/** Waits for background body logging (response copies are read after the caller got its response). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (statSync(full).size < 5_000_000) out.push(full);
  }
  return out;
}

describe('debug logging (SERVICE_DEBUG) and secret redaction', () => {
  it('logs method, URL, status, timing and body sizes; credential headers and secret fields redacted; bodies truncated', async () => {
    const lines: string[] = [];
    const fake: typeof fetch = () => Promise.resolve(new Response(JSON.stringify({ token: 't-123456', text: 'x'.repeat(3000) }), { status: 201, headers: { 'content-type': 'application/json' } }));
    const wrapped = debugFetch(fake, { label: 'test', secrets: new SecretSet([CANARY]), sink: (l) => lines.push(l) });
    const res = await wrapped(`http://127.0.0.1:1/v1/x?key=${CANARY}`, {
      method: 'POST',
      headers: { authorization: 'Bearer abcdef-token', 'api-key': 'hdr-key-9876', 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'field-secret-1', client_secret: 'cs-1234', prompt: `my key is ${CANARY}` }),
    });
    assert.equal(res.status, 201);
    assert.equal((await res.json() as { token: string }).token, 't-123456', 'the caller gets the untouched response');
    await settle();
    const log = lines.join('\n');
    assert.match(log, /\[agentcli debug\] test #1 → POST http:\/\/127\.0\.0\.1:1\/v1\/x\?key=\[redacted\] \(\d+ bytes\)/);
    assert.match(log, /#1 ← 201 POST .* in \d+ ms \(application\/json\)/);
    assert.match(log, /← body \d+ bytes: /);
    assert.match(log, new RegExp(`${DEBUG_BODY_LIMIT}|more characters not shown`));
    for (const secret of [CANARY, 'abcdef-token', 'hdr-key-9876', 'field-secret-1', 'cs-1234', 't-123456']) {
      assert.ok(!log.includes(secret), `"${secret}" leaked into: ${log}`);
    }
    assert.match(redactBody('client_id=a&client_secret=b&scope=c', new SecretSet()), /client_secret=%5Bredacted%5D/);
  });

  it('writes each record as one line starting with its prefix, a streamed body too (its line breaks as \\n)', async () => {
    const lines: string[] = [];
    const sse = 'data: {"a":1}\n\ndata: {"b":2}\r\n\ndata: [DONE]\n\n';
    const fake: typeof fetch = () => Promise.resolve(new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    const wrapped = debugFetch(fake, { label: 'test', secrets: new SecretSet(), sink: (l) => lines.push(l) });
    await (await wrapped('http://127.0.0.1:1/v1/chat', { method: 'POST', body: '{\n  "stream": true\n}' })).text();
    await settle();
    assert.equal(lines.length, 4, lines.join('\n'));
    for (const line of lines) {
      assert.ok(line.startsWith('[agentcli debug] test #1 '), line);
      assert.ok(!/[\r\n]/.test(line), `a line break in: ${line}`);
    }
    assert.ok(lines.some((l) => l.endsWith('← body 45 bytes: data: {"a":1}\\n\\ndata: {"b":2}\\n\\ndata: [DONE]\\n\\n')), lines.join('\n'));
    assert.ok(lines.some((l) => l.endsWith('→ body {"stream":true}')), lines.join('\n'));
  });

  it('credential query parameters and headers are masked by name, whatever their value (not only known secrets)', async () => {
    const lines: string[] = [];
    const fake: typeof fetch = () => Promise.resolve(new Response('{}', { status: 200 }));
    const wrapped = debugFetch(fake, { label: 'test', secrets: new SecretSet(), sink: (l) => lines.push(l) });
    const unknownSecrets = {
      'api-key': 'q-apikey-1111', API_KEY: 'q-apikey-2222', Key: 'q-key-3333', code: 'q-code-4444', sig: 'q-sig-5555',
      signature: 'q-signature-6666', token: 'q-token-7777', access_token: 'q-access-8888', Client_Secret: 'q-cs-9999',
      assertion: 'q-assert-0000',
    };
    const query = Object.entries(unknownSecrets).map(([k, v]) => `${k}=${v}`).join('&');
    await wrapped(`https://user:url-pass-1234@hub.example.test/openai/x?api-version=2024-10-21&${query}#frag`, {
      method: 'POST',
      headers: {
        'Ocp-Apim-Subscription-Key': 'h-apim-1234',
        'x-goog-api-key': 'h-goog-5678',
        'X-Auth-Token': 'h-auth-9012',
        'x-client-secret': 'h-secret-3456',
        'x-my-key': 'h-key-7890',
        'content-type': 'application/json',
      },
    });
    await settle();
    const log = lines.join('\n');
    for (const secret of [...Object.values(unknownSecrets), 'url-pass-1234', 'h-apim-1234', 'h-goog-5678', 'h-auth-9012', 'h-secret-3456', 'h-key-7890']) {
      assert.ok(!log.includes(secret), `"${secret}" leaked into: ${log}`);
    }
    assert.match(log, /\?api-version=2024-10-21&api-key=\[redacted\]&API_KEY=\[redacted\]&Key=\[redacted\]&code=\[redacted\]/, 'other parameters stay readable');
    assert.match(log, /"ocp-apim-subscription-key":"\[redacted\]"/);
    assert.match(log, /"content-type":"application\/json"/, 'ordinary headers stay readable');
    assert.match(log, /https:\/\/user:\[redacted\]@hub\.example\.test/);
  });

  describe('providers with debug on and a canary key', () => {
    let service: ServiceAiStub;
    let chatStub: OpenAIStub;
    /** Tokens the cloudhub stub accepts: those the identity stub issued. */
    let tokens: readonly string[] = [];
    beforeEach(async () => {
      service = await startServiceAiStub();
      chatStub = await startCloudHubStub({ deployments: ['d'], apiKey: CANARY, acceptToken: (t) => tokens.includes(t) });
    });
    afterEach(async () => {
      await service.close();
      await chatStub.close();
    });

    it('serviceai: requests are logged, the canary key never appears in logs or errors (even when the server echoes it)', async () => {
      const lines: string[] = [];
      const cfg = config({ debug: true, serviceai: { baseUrl: service.origin, apiKey: CANARY } });
      const p = createProvider(cfg, {}, { ...FAST_RETRY, debugSink: (l) => lines.push(l) });
      const chatErr = await failureOf(p.streamChat(chat([{ role: 'user', content: `echo ${CANARY}` }])));
      const listErr = await p.listModels().then(() => undefined, (e: unknown) => e);
      const decideErr = await requestDecision(cfg, { kind: 'noul', question: 'q?' }, { debugSink: (l) => lines.push(l) }).then(() => undefined, (e: unknown) => e);
      await settle();
      const log = lines.join('\n');
      assert.match(log, /serviceai #1 → POST .*\/v1\/chat\/completions/);
      assert.match(log, /← 401 POST/);
      assert.match(log, /invalid API key: \[redacted\]/, 'the echoed key is redacted in the logged body');
      assert.match(log, /decisions #1 → POST .*\/v1\/decisions/);
      for (const err of [chatErr, listErr, decideErr]) {
        assert.ok(err instanceof ProviderError, String(err));
        assert.ok(!`${err.message} ${err.remedy}`.includes(CANARY), err.message);
      }
      assert.ok(!log.includes(CANARY), log);
    });

    it('no debug lines without debug', async () => {
      const lines: string[] = [];
      service.addKey('k-plain', 'Free');
      const p = createProvider(config({ serviceai: { baseUrl: service.origin, apiKey: 'k-plain' } }), {}, { debugSink: (l) => lines.push(l) });
      await p.listModels();
      assert.deepEqual(lines, []);
    });

    it('cloudhub: the api-key header and an entra-id client secret and token are redacted', async () => {
      const lines: string[] = [];
      chatStub.enqueue({ text: 'ok' });
      const keyed = createProvider(
        config({ debug: true, provider: 'cloudhub', cloudhub: { baseUrl: chatStub.origin, deploymentName: 'd', apiKey: CANARY } }),
        {},
        { debugSink: (l) => lines.push(l) },
      );
      await collect(keyed.streamChat(chat()));
      const identity = await startIdentityStub({ tenantId: 't', clientId: 'c', clientSecret: CANARY });
      tokens = identity.issued;
      try {
        chatStub.enqueue({ text: 'ok' });
        const entra = createProvider(
          config({ debug: true, provider: 'cloudhub', cloudhub: { baseUrl: chatStub.origin, deploymentName: 'd', authMethod: 'entra-id', tenantId: 't', clientId: 'c', clientSecret: CANARY } }),
          {},
          { debugSink: (l) => lines.push(l), cloudHubAuth: { authorityHost: identity.origin, tlsCa: identity.ca } },
        );
        await collect(entra.streamChat(chat()));
        await settle();
        const log = lines.join('\n');
        assert.match(log, /"api-key":"\[redacted\]"/);
        assert.match(log, /cloudhub identity → POST .*\/t\/oauth2\/v2\.0\/token/);
        assert.match(log, /"authorization":"\[redacted\]"/);
        assert.ok(identity.issued[0] && !log.includes(identity.issued[0]), 'the token is not logged');
        assert.ok(!log.includes(CANARY), log);
      } finally {
        await identity.close();
      }
    });
  });

  describe('the runtime process with SERVICE_DEBUG=true', () => {
    let service: ServiceAiStub;
    let rt: RuntimeUnderTest | undefined;
    before(function () {
      this.timeout(120_000);
      ensureRuntimeBuilt();
    });
    beforeEach(async () => {
      service = await startServiceAiStub();
    });
    afterEach(async () => {
      await rt?.close();
      rt = undefined;
      await service.close();
    });

    it('the canary key never reaches stderr logs, events, or any file the run leaves behind', async () => {
      service.addKey(CANARY, 'Pro');
      service.enqueueChat({ text: 'All good.' });
      const cwd = makeWorkspace({ 'a.txt': 'hello\n' });
      const env = testEnv({ SERVICE_DEBUG: 'true', SERVICE_PROVIDER: 'serviceai', SERVICE_BASE_URL: service.origin, SERVICE_API_KEY: CANARY });
      rt = await startRuntime(cwd, { env });
      const ok = await rt.request('prompt', { message: 'say all good' });
      await rt.waitForEvent('agent_end', (e) => e.runId === ok.runId);
      assert.equal(service.requests[0]?.headers['authorization'], `Bearer ${CANARY}`, 'the key was really used');
      // Now a server that does not know the key: the next run fails with 401, and the server echoes the key.
      await service.close();
      service = await startServiceAiStub();
      await rt.request('configure', { config: { serviceai: { baseUrl: service.origin } } });
      const failed = await rt.request('prompt', { message: 'again' });
      const end = await rt.waitForEvent('agent_end', (e) => e.runId === failed.runId);
      assert.equal(end.status, 'error');
      const errorEvent = rt.events.find((e) => e.type === 'error');
      assert.match(JSON.stringify(errorEvent), /auth_failed/);
      const models = await rt.raw('listModels', {}).then(() => undefined, (e: unknown) => e as Error);
      assert.ok(models instanceof Error);
      await settle();
      const stderr = rt.stderr();
      assert.match(stderr, /\[agentcli debug\] serviceai #\d+ → POST .*\/v1\/chat\/completions/);
      assert.match(stderr, /← 401/);
      assert.ok(!stderr.includes(CANARY), 'stderr logs');
      assert.ok(!JSON.stringify(rt.events).includes(CANARY), 'events');
      assert.ok(!models.message.includes(CANARY), 'rpc error message');
      const home = env['HOME'] ?? '';
      for (const file of [...filesUnder(cwd), ...filesUnder(home)]) {
        assert.ok(!readFileSync(file, 'utf8').includes(CANARY), `file ${file}`);
      }
    });
  });
});
