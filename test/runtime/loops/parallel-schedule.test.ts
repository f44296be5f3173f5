import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { conflicts, createMutex, footprintOf, type Footprint } from '../../../src/runtime/agent/loops/parallel';
import type { ToolExecutionDeps } from '../../../src/runtime/agent/tool-executor';
import { defaultConfig } from '../../../src/runtime/config/schema';
import { DirectoryGrants } from '../../../src/runtime/permissions/directory-grants';
import { PermissionPolicy } from '../../../src/runtime/permissions/policy';
import { createCoreTools } from '../../../src/runtime/tools/registry';

function depsFor(mode: 'interactive' | 'unrestricted', allow: string[] = []): ToolExecutionDeps {
  const cwd = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'agentcli-par-')));
  const grants = new DirectoryGrants([]);
  const rules = { ...defaultConfig().permissions, allow };
  const policy = new PermissionPolicy({ cwd, rules, mode, directories: grants });
  const tools = new Map(createCoreTools().map((t) => [t.name, t]));
  return { cwd, tools, grants, policy, host: { interactive: true, emit: () => {} } } as unknown as ToolExecutionDeps;
}

const call = (name: string, args: unknown) => ({ id: name, name, arguments: JSON.stringify(args) });
const fp = (kind: Footprint['kind'], paths: string[] = []): Footprint => ({ kind, paths, mayAsk: false });

describe('parallel loop scheduling', () => {
  it('classifies calls: reads, writes with their paths, allowed commands, commands that need a person', () => {
    const deps = depsFor('interactive', ['Bash(echo:*)']);
    assert.equal(footprintOf(call('read_file', { path: 'a.txt' }), deps).kind, 'read');
    const write = footprintOf(call('write_file', { path: 'a.txt', content: 'x' }), deps);
    assert.deepEqual([write.kind, write.paths], ['write', [path.join(deps.cwd, 'a.txt')]]);
    assert.deepEqual(footprintOf(call('run_command', { command: 'echo hi' }), deps), { kind: 'command', paths: [], mayAsk: false });
    const asked = footprintOf(call('run_command', { command: 'make build' }), deps);
    assert.deepEqual([asked.kind, asked.mayAsk], ['exclusive', true]);
    assert.equal(footprintOf(call('read_file', { path: '/etc/hostname' }), deps).mayAsk, true, 'outside the workspace: a directory question');
    // With yolo nothing asks, so a command is just a command.
    assert.equal(footprintOf(call('run_command', { command: 'make build' }), depsFor('unrestricted')).kind, 'command');
    assert.equal(footprintOf(call('no_such_tool', {}), deps).kind, 'read', 'fails at once, touching nothing');
  });

  it('orders only what conflicts', () => {
    assert.equal(conflicts(fp('read', ['/w/a']), fp('read', ['/w/a'])), false);
    assert.equal(conflicts(fp('write', ['/w/a']), fp('write', ['/w/b'])), false, 'distinct files');
    assert.equal(conflicts(fp('write', ['/w/a']), fp('write', ['/w/a'])), true, 'same file');
    assert.equal(conflicts(fp('read', ['/w/a']), fp('write', ['/w/a'])), true);
    assert.equal(conflicts(fp('command'), fp('command')), false);
    assert.equal(conflicts(fp('command'), fp('read', ['/w/a'])), false);
    assert.equal(conflicts(fp('write', ['/w/a']), fp('command')), true, 'a command may read what was written');
    assert.equal(conflicts(fp('exclusive'), fp('read')), true);
    assert.equal(conflicts(fp('read'), fp('exclusive')), true);
  });

  it('the mutex runs one holder at a time, in arrival order, and survives a failing holder', async () => {
    const lock = createMutex();
    const log: string[] = [];
    const hold = (name: string, ms: number, fail = false) =>
      lock(async () => {
        log.push(`in:${name}`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`out:${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([hold('a', 30, true), hold('b', 5), hold('c', 1)]);
    assert.deepEqual(log, ['in:a', 'out:a', 'in:b', 'out:b', 'in:c', 'out:c']);
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'fulfilled', 'fulfilled']);
  });
});
