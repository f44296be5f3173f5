import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { scriptedToolTurn, startOpenAIStub } from '../../stubs/openai-stub';
import { makeTempDir } from '../../helpers/temp-dir';

describe('test stub server (OpenAI-compatible wire format)', () => {
  it('answers 500 naming the request when nothing is scripted, and non-stream requests with a completion', async () => {
    const stub = await startOpenAIStub({ fallback: (req) => ({ text: `echo ${req.body.messages.length}` }) });
    try {
      const post = (body: unknown) =>
        fetch(`${stub.url}/chat/completions`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const completion = await (await post({ model: 'm', messages: [{ role: 'user', content: 'a' }] })).json();
      assert.equal(completion.object, 'chat.completion');
      assert.equal(completion.choices[0].message.content, 'echo 1');
    } finally {
      await stub.close();
    }
    const bare = await startOpenAIStub();
    try {
      const res = await fetch(`${bare.url}/chat/completions`, { method: 'POST', body: '{}' });
      assert.equal(res.status, 500);
      assert.match(await res.text(), /stub: no scripted reply for request #1/);
      assert.equal(bare.requests[0]?.rawBodyBytes, 2);
    } finally {
      await bare.close();
    }
  });

  it('serves exactly /v1/chat/completions and /v1/models; with an apiKey it requires Authorization: Bearer <key>', async () => {
    const stub = await startOpenAIStub({ apiKey: 'vk-stub-key', fallback: () => ({ text: 'ok' }) });
    try {
      const post = (url: string, headers: Record<string, string> = {}) =>
        fetch(url, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }), headers: { 'content-type': 'application/json', ...headers } });
      const good = { authorization: 'Bearer vk-stub-key' };
      assert.equal((await post(`${stub.origin}/chat/completions`, good)).status, 404, 'no /v1 prefix → no route');
      assert.equal((await post(`${stub.origin}/openai/deployments/d/chat/completions`, good)).status, 404, 'not a cloudhub path');
      const noKey = await post(`${stub.url}/chat/completions`);
      assert.equal(noKey.status, 401);
      assert.equal(((await noKey.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
      assert.equal((await post(`${stub.url}/chat/completions`, { authorization: 'Bearer wrong' })).status, 401);
      assert.equal((await post(`${stub.url}/chat/completions`, good)).status, 200);
      assert.equal((await fetch(`${stub.url}/models`, { headers: good })).status, 200);
    } finally {
      await stub.close();
    }
  });

  it('scriptedToolTurn scripts a tool call followed by a text answer', () => {
    assert.deepEqual(scriptedToolTurn('read_file', { path: 'a' }, 'done'), [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] },
      { text: 'done' },
    ]);
  });

  it('runs as a process with a script file and prints its URL', async () => {
    const dir = makeTempDir('stub-');
    const script = join(dir, 'replies.json');
    writeFileSync(script, JSON.stringify({ replies: [{ text: 'from file' }], models: ['file-model'] }));
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/stubs/openai-stub.ts', '--port', '0', '--script', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line: string = await new Promise((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`stub exited with ${code}`)));
      });
      const url = /^listening (http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(line)?.[1];
      assert.ok(url, line);
      const models = await (await fetch(`${url}/models`)).json();
      assert.deepEqual(models.data.map((m: { id: string }) => m.id), ['file-model']);
      const sse = await (await fetch(`${url}/chat/completions`, { method: 'POST', body: JSON.stringify({ stream: true }) })).text();
      assert.match(sse, /"content":"from"/);
      assert.match(sse, /data: \[DONE\]\n\n$/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
