import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runGgufServerCommand } from '../../../src/runtime/cli/ggufserver-command';
import { main } from '../../../src/runtime/cli/main';
import { planLaunch, shellQuote } from '../../../src/runtime/providers/ggufserver/launch-plan';
import { tempLayout, writeJson, type TempLayout } from '../config/helpers';

describe('agentcli ggufserver command', () => {
  let t: TempLayout;
  let out: string;
  let err: string;
  beforeEach(() => {
    t = tempLayout();
    out = '';
    err = '';
  });
  afterEach(() => t.cleanup());

  const run = (args: string[]) =>
    runGgufServerCommand(['command', ...args], { cwd: t.cwd, home: t.home, env: {}, cpuCount: 6, stdout: (s) => (out += s), stderr: (s) => (err += s) });
  const flag = (command: string[], name: string): string | undefined => command[command.indexOf(name) + 1];

  it('applies the VRAM table: layers ≈ VRAM × 2, batch and context by VRAM', () => {
    const at = (vramGb: number) => planLaunch({ vramGb, cpuCount: 4, host: '127.0.0.1', port: 8080 });
    assert.deepEqual([at(4).nGpuLayers, at(4).batchSize, at(4).ctxSize], [8, 128, 2048]);
    assert.deepEqual([at(8).nGpuLayers, at(8).batchSize, at(8).ctxSize], [16, 256, 4096]);
    assert.deepEqual([at(12).nGpuLayers, at(12).batchSize, at(12).ctxSize], [24, 512, 8192]);
    assert.deepEqual([at(24).nGpuLayers, at(24).batchSize, at(24).ctxSize], [48, 1024, 16384]);
    assert.deepEqual([at(48).batchSize, at(48).ctxSize], [1024, 16384]);
    assert.equal(at(6).batchSize, 128, '6 GB uses the 4 GB row');
  });

  it('prints the start command with host/port from the config, threads from the CPU count and quantization advice', () => {
    writeJson(t.userFile, { ggufserver: { baseUrl: 'http://127.0.0.1:9090', contextSize: 4096 } });
    assert.equal(run(['--vram', '12', '--ram', '32']), 0, err);
    const command = out.split('\n')[0]?.split(' ') ?? [];
    assert.equal(command[0], '<gguf-server>');
    assert.deepEqual(
      ['--host', '--port', '--ctx-size', '--batch-size', '--threads', '--n-gpu-layers'].map((f) => flag(command, f)),
      ['127.0.0.1', '9090', '8192', '512', '6', '24'],
    );
    assert.ok(command.includes('--mmap') && command.includes('--mlock'));
    assert.equal(flag(command, '--model'), '<path/to/model.gguf>');
    assert.match(out, /Q4_K_M is the recommended general choice/);
    assert.doesNotMatch(out, /Q5_K_M or Q6_K/, '12 GB: the general advice only');
    assert.match(planLaunch({ vramGb: 24, cpuCount: 1, host: 'h', port: 1 }).quantization, /With 24 GB, Q5_K_M or Q6_K/);
    assert.match(out, /agentcli config set ggufserver.contextSize 8192/);
    assert.match(out, /Q2_K\s+2 bits\s+quality lowest/);
  });

  it('several GPUs: total VRAM, --tensor-split and --main-gpu', () => {
    assert.equal(run(['--vram', '8', '--gpus', '2', '--json']), 0, err);
    const plan = JSON.parse(out) as { command: string[]; nGpuLayers: number; tensorSplit: string };
    assert.equal(plan.nGpuLayers, 32);
    assert.equal(plan.tensorSplit, '1,1');
    assert.equal(flag(plan.command, '--tensor-split'), '1,1');
    assert.equal(flag(plan.command, '--main-gpu'), '0');
  });

  it('CPU only: no GPU layers, the smallest table row, and a note that it will be slow; small RAM gets Q3/Q2 advice', () => {
    assert.equal(run(['--ram', '4', '--server-bin', 'my server']), 0, err);
    assert.match(out, /^'my server' /);
    assert.match(out, /--n-gpu-layers 0/);
    assert.match(out, /runs on the CPU, so inference is slow/);
    assert.match(out, /Q3_K_M or Q2_K/);
  });

  it('checks the model file: missing, not gguf, or fine', () => {
    const bad = path.join(t.cwd, 'model.bin');
    writeFileSync(bad, 'not a model');
    assert.equal(run(['--vram', '8', '--model', bad]), 0);
    assert.match(out, /is not a gguf file .* verify the gguf format and the file's integrity/);
    out = '';
    const good = path.join(t.cwd, 'good model.gguf');
    writeFileSync(good, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(16)]));
    assert.equal(run(['--vram', '8', '--model', good]), 0);
    assert.ok(out.split('\n')[0]?.includes(shellQuote(good)), 'quoted path');
    assert.doesNotMatch(out, /not a gguf|does not exist/);
    out = '';
    assert.equal(run(['--model', path.join(t.cwd, 'nope.gguf')]), 0);
    assert.match(out, /does not exist yet/);
  });

  it('rejects bad values with exit 2, and is reachable through the CLI entry', async () => {
    assert.equal(run(['--vram', 'lots']), 2);
    assert.match(err, /--vram must be a number of 0 or more \(got "lots"\)/);
    err = '';
    assert.equal(run(['--gpus', '2']), 2);
    assert.match(err, /--gpus needs --vram/);
    err = '';
    assert.equal(run(['--vram', '-3']), 2);
    assert.match(err, /--vram must be 0 or more \(got "-3"\)/);
    assert.doesNotMatch(err, /ambiguous/);
    err = '';
    assert.equal(run(['--ram', '-0.5']), 2);
    assert.match(err, /--ram must be 0 or more \(got "-0\.5"\)/);
    err = '';
    assert.equal(run(['--gpus', '0', '--vram', '8']), 2, 'zero GPUs is not one GPU');
    assert.match(err, /--gpus must be 1 or more \(got "0"\)/);
    err = '';
    assert.equal(run(['--gpus', '-2', '--vram', '8']), 2);
    assert.match(err, /--gpus must be 1 or more \(got "-2"\)/);
    err = '';
    const code = await main(['ggufserver', 'start'], { cwd: t.cwd, home: t.home, env: {}, stdout: (s) => (out += s), stderr: (s) => (err += s) });
    assert.equal(code, 2);
    assert.match(err, /expected: agentcli ggufserver command/);
  });
});
