/**
 * The SDK against a runtime in this process (RuntimeClientOptions.transport over a pair of streams, the runtime's own
 * rpc server and Session with a scripted provider): the Agent's run loop, permission callbacks and change batches in
 * milliseconds. The real-process suites next to this one cover spawning, exit and the CLI.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Agent, type ExitInfo, type RuntimeTransport } from '../../src/sdk';
import { Session } from '../../src/runtime/agent/session';
import { defaultConfig } from '../../src/runtime/config/schema';
import { startRpcServer } from '../../src/runtime/rpc/server';
import { makeTempDir } from '../helpers/temp-dir';
import { scriptedProvider, type ScriptedReply } from '../runtime/agent/scripted-provider';

function inProcessRuntime(cwd: string, replies: ScriptedReply[]) {
  const provider = scriptedProvider(replies);
  const transport = async (): Promise<RuntimeTransport> => {
    const toRuntime = new PassThrough();
    const fromRuntime = new PassThrough();
    let exited = false;
    const config = defaultConfig();
    config.sandbox.mode = 'off';
    const done = startRpcServer({
      input: toRuntime,
      output: fromRuntime,
      capabilities: { loopTypes: ['react'], tools: [], stepControl: true, changeBatches: true, structuredOutput: true, editorMcpTools: true },
      log: () => undefined,
      createSession: (emit) =>
        new Session({
          cwd,
          home: makeTempDir('sdk-inproc-home-'),
          config,
          projectConfigFile: path.join(cwd, '.agentcli', 'config.json'),
          host: { interactive: true, emit },
          batchMode: true,
          providerFactory: () => provider,
        }),
    });
    const whenExited = done.then((): ExitInfo => {
      exited = true;
      fromRuntime.end();
      return { code: 0, signal: null, stderrTail: [] };
    });
    return {
      stdout: fromRuntime,
      stdin: toRuntime,
      get hasExited() {
        return exited;
      },
      whenExited: () => whenExited,
      stop: async () => {
        toRuntime.end();
        return whenExited;
      },
    };
  };
  return { provider, transport };
}

describe('SDK against an in-process runtime (transport option)', () => {
  it('runs a prompt to completion with streamed text', async () => {
    const cwd = makeTempDir('sdk-inproc-');
    const rt = inProcessRuntime(cwd, [{ text: 'All done here.' }]);
    const agent = await Agent.create({ cwd, transport: rt.transport });
    try {
      const result = await agent.run('hello');
      assert.equal(result.status, 'completed');
      assert.equal(result.text, 'All done here.');
      assert.equal(agent.client.pid, undefined, 'no subprocess');
    } finally {
      await agent.close();
    }
  });

  it('asks the permission callback, and an accepted change batch lands on disk', async () => {
    const cwd = makeTempDir('sdk-inproc-');
    writeFileSync(path.join(cwd, 'a.txt'), 'old\n');
    const rt = inProcessRuntime(cwd, [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'new\n' } }] },
      { text: 'changed' },
    ]);
    const asked: string[] = [];
    const agent = await Agent.create({
      cwd,
      transport: rt.transport,
      permissionMode: 'interactive',
      onPermissionRequest: (req) => {
        asked.push(req.tool);
        return 'deny';
      },
      onChangeBatch: () => 'accept_all',
    });
    try {
      const result = await agent.run('change a.txt');
      assert.deepEqual(asked, ['run_command']);
      assert.deepEqual(result.changes?.map((c) => [c.path, c.outcome]), [['a.txt', 'applied']]);
      assert.equal(readFileSync(path.join(cwd, 'a.txt'), 'utf8'), 'new\n');
      assert.match(rt.provider.requests[1]?.messages.find((m) => m.role === 'tool')?.content ?? '', /denied/i);
    } finally {
      await agent.close();
    }
  });
});
