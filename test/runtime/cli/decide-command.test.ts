import * as assert from 'node:assert/strict';
import { main } from '../../../src/runtime/cli/main';
import { startServiceAiStub, type ServiceAiStub } from '../../stubs/serviceai-stub';
import { tempLayout, writeJson, type TempLayout } from '../config/helpers';

describe('agentcli decide', () => {
  let t: TempLayout;
  let stub: ServiceAiStub;
  let out: string;
  let err: string;
  beforeEach(async () => {
    t = tempLayout();
    stub = await startServiceAiStub();
    stub.addKey('key-pro', 'Pro');
    out = '';
    err = '';
  });
  afterEach(async () => {
    t.cleanup();
    await stub.close();
  });

  const run = (args: string[], env: NodeJS.ProcessEnv = { SERVICE_BASE_URL: stub.origin, SERVICE_API_KEY: 'key-pro' }) =>
    main(['decide', ...args], { cwd: t.cwd, home: t.home, env, stdout: (s) => (out += s), stderr: (s) => (err += s) });

  it('choice: prints the answer and every probability', async () => {
    assert.equal(await run(['--kind', 'choice', '--option', 'patch', '--option', 'minor', '--option', 'major', 'Which version bump?']), 0, err);
    const lines = out.trim().split('\n');
    assert.equal(lines[0], 'answer: patch');
    assert.equal(lines[1], 'probabilities:');
    assert.match(lines[2] ?? '', /patch\s+60\.0%/);
    assert.match(out, /minor\s+20\.0%/);
    assert.deepEqual(stub.requests[0]?.body, { model: 'weka', kind: 'choice', question: 'Which version bump?', options: ['patch', 'minor', 'major'] });
  });

  it('--json prints the typed result; score with --scale; noul with --context', async () => {
    assert.equal(await run(['--json', '--kind', 'score', '--scale', '1-3', 'How risky?']), 0, err);
    assert.deepEqual(JSON.parse(out), { kind: 'score', model: 'weka', answer: 3, probabilities: { '1': 1 / 3, '2': 1 / 3, '3': 1 / 3 } });
    out = '';
    assert.equal(await run(['--kind', 'noul', '--context', 'CI green', 'Merge', 'now?']), 0, err);
    assert.match(out, /^answer: yes\n/);
    assert.equal(stub.requests[1]?.body.question, 'Merge now?');
    assert.equal(stub.requests[1]?.body.context, 'CI green');
  });

  it('the key may come from SERVICE_AI_API_KEY and the base URL from the config file', async () => {
    writeJson(t.userFile, { serviceai: { baseUrl: stub.origin } });
    assert.equal(await run(['--kind', 'noul', 'ok?'], { SERVICE_AI_API_KEY: 'key-pro' }), 0, err);
    assert.equal(stub.requests[0]?.headers['authorization'], 'Bearer key-pro');
  });

  it('usage errors exit 2 with a message naming the problem', async () => {
    assert.equal(await run(['--kind', 'guess', 'q?']), 2);
    assert.match(err, /--kind must be one of noul, choice, score \(got "guess"\)/);
    err = '';
    assert.equal(await run(['--kind', 'choice', '--option', 'a', 'q?']), 2);
    assert.match(err, /a choice needs 2 to 20 options/);
    err = '';
    assert.equal(await run(['--kind', 'noul']), 2);
    assert.match(err, /give the question/);
    err = '';
    assert.equal(await run(['--kind', 'score', '--scale', 'low-high', 'q?']), 2);
    assert.match(err, /--scale must look like 1-10/);
    assert.equal(stub.requests.length, 0);
  });

  it('service failures exit 1 with the remedy; the key is never printed', async () => {
    assert.equal(await run(['--kind', 'noul', 'q?'], { SERVICE_BASE_URL: stub.origin, SERVICE_API_KEY: 'sk-canary-decide-5555' }), 1);
    assert.match(err, /rejected the credentials \(HTTP 401\)/);
    assert.match(err, /remedy: verify the API key/);
    assert.doesNotMatch(err, /sk-canary-decide-5555/);
    err = '';
    stub.enqueueDecision({ kind: 'noul', answer: 'perhaps', probabilities: { yes: 0.5, no: 0.5 } });
    assert.equal(await run(['--kind', 'noul', 'q?']), 1);
    assert.match(err, /malformed noul answer: answer "perhaps"/);
  });

  it('without the service address: exit 2 naming SERVICE_BASE_URL', async () => {
    assert.equal(await run(['--kind', 'noul', 'q?'], { SERVICE_API_KEY: 'key-pro' }), 2);
    assert.match(err, /serviceai\.baseUrl is not set/);
    assert.match(err, /SERVICE_BASE_URL/);
  });

  it('--help prints the usage', async () => {
    assert.equal(await run(['--help']), 0);
    assert.match(out, /Usage: agentcli decide --kind <noul\|choice\|score>/);
  });
});
