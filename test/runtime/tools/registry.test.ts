import assert from 'node:assert/strict';
import { createCoreTools, parseToolArgs, toChatToolSpec } from '../../../src/runtime/tools/registry';
import { CLI, makeWorkspace, runCli } from '../../helpers/runtime-process';
import { startOpenAIStub } from '../../stubs/openai-stub';

describe('tool registry', () => {
  const tools = createCoreTools({ commandTimeoutMs: 5000 });
  const byName = (name: string) => {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `missing tool ${name}`);
    return tool;
  };

  it('provides the core tools with read-only flags on the Read tools only', () => {
    assert.deepEqual(
      tools.map((t) => [t.name, t.readOnly]),
      [
        ['read_file', true],
        ['list_files', true],
        ['grep', true],
        ['write_file', false],
        ['edit_file', false],
        ['delete_file', false],
        ['run_command', false],
      ],
    );
  });

  it('turns each tool into a compact chat tool spec with a JSON schema', () => {
    const specs = tools.map(toChatToolSpec);
    const edit = specs.find((s) => s.name === 'edit_file');
    assert.ok(edit);
    assert.equal(edit.parameters.type, 'object');
    assert.deepEqual(edit.parameters.required, ['path', 'old_text', 'new_text']);
    assert.equal('$schema' in edit.parameters, false);
    assert.match(specs.find((s) => s.name === 'run_command')?.description ?? '', /not your proposed edits/);
    assert.ok(JSON.stringify(specs).length < 4096, 'the tool list stays small for the first request');
  });

  it('makes a tool\'s spec once: every run after the first reuses it', () => {
    const first = byName('list_files'); // made per createCoreTools call (read_file is one shared definition)
    assert.equal(toChatToolSpec(first), toChatToolSpec(first));
    const again = createCoreTools().find((t) => t.name === first.name);
    assert.ok(again);
    assert.notEqual(toChatToolSpec(again), toChatToolSpec(first), 'a new definition (new settings) gets its own');
    assert.deepEqual(toChatToolSpec(again), toChatToolSpec(first));
  });

  it('parses valid arguments and names the field of invalid ones', () => {
    const edit = byName('edit_file');
    assert.deepEqual(parseToolArgs(edit, '{"path":"a","old_text":"x","new_text":"y"}'), {
      ok: true,
      args: { path: 'a', old_text: 'x', new_text: 'y' },
    });
    assert.deepEqual(parseToolArgs(edit, '{"path":"a","new_text":"y"}'), {
      ok: false,
      error: 'invalid arguments for edit_file: "old_text" is required',
    });
    const wrongType = parseToolArgs(byName('read_file'), '{"path":"a","offset":0}');
    assert.equal(wrongType.ok, false);
    assert.match(wrongType.ok ? '' : wrongType.error, /invalid arguments for read_file: "offset"/);
    const badJson = parseToolArgs(edit, '{"path":');
    assert.match(badJson.ok ? '' : badJson.error, /invalid arguments for edit_file: not valid JSON/);
    const notObject = parseToolArgs(edit, '[1]');
    assert.match(notObject.ok ? '' : notObject.error, /invalid arguments for edit_file: arguments: .*object/i);
  });

  it('treats empty arguments as an empty object', () => {
    assert.deepEqual(parseToolArgs(byName('list_files'), ''), { ok: true, args: {} });
  });

  it('the built CLI offers the built-in tools with the JSON Schemas the source makes (built in ahead of time)', async function () {
    this.timeout(20_000);
    const stub = await startOpenAIStub({ replies: [{ text: 'done' }] });
    try {
      const result = await runCli(['--bare', '-p', 'hello'], makeWorkspace({}, stub.origin));
      assert.equal(result.code, 0, result.stderr);
      const offered = (stub.requests[0]?.body.tools ?? []) as Array<{ function: { name: string; description: string; parameters: unknown } }>;
      const core = offered.filter((t) => tools.some((c) => c.name === t.function.name));
      assert.equal(core.length, tools.length, `${CLI} offers every built-in tool`);
      for (const t of core) {
        const expected = toChatToolSpec(byName(t.function.name));
        assert.deepEqual(t.function.parameters, expected.parameters, t.function.name);
        assert.equal(t.function.description, expected.description, t.function.name);
      }
    } finally {
      await stub.close();
    }
  });
});
