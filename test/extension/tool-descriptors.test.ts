import assert from 'node:assert/strict';
import { EDITOR_TOOLS, findTool, formatDiagnostics, formatLocations, positionArgs, severityArg, stringArg } from '../../src/extension/mcp/tool-descriptors';

describe('extension editor tool descriptors', () => {
  it('offers the required tools with valid names and object schemas', () => {
    assert.deepEqual(EDITOR_TOOLS.map((t) => t.name), ['diagnostics', 'active_editor', 'open_editors', 'go_to_definition', 'find_references', 'workspace_symbols', 'file_language']);
    for (const t of EDITOR_TOOLS) {
      assert.match(t.name, /^[a-zA-Z0-9_-]{1,48}$/);
      assert.equal(t.inputSchema.type, 'object');
    }
    assert.equal(findTool('editor_diagnostics')?.name, 'diagnostics');
    assert.equal(findTool('diagnostics')?.name, 'diagnostics');
    assert.equal(findTool('editor_nope'), undefined);
  });

  it('checks arguments with messages that say what to send', () => {
    assert.deepEqual(positionArgs({ path: 'a.ts', line: 3, column: 5 }), { path: 'a.ts', line: 3, column: 5 });
    assert.throws(() => positionArgs({ path: 'a.ts', line: 0, column: 1 }), /"line" must be an integer of 1 or more/);
    assert.throws(() => stringArg({}, 'query', true), /"query" is required/);
    assert.throws(() => stringArg([], 'query', true), /JSON object/);
    assert.equal(stringArg(undefined, 'path', false), undefined);
    assert.equal(severityArg({}), 'warning');
    assert.throws(() => severityArg({ minSeverity: 'fatal' }), /one of error, warning, info, hint/);
  });

  it('formats diagnostics compactly, errors first, with counts', () => {
    const text = formatDiagnostics(
      [
        { path: 'b.ts', line: 2, column: 1, severity: 'warning', message: 'unused', source: 'ts', code: '6133' },
        { path: 'a.ts', line: 4, column: 14, severity: 'error', message: "Type 'string' is not\n assignable to type 'number'.", source: 'ts', code: '2322' },
      ],
      'the workspace',
    );
    assert.equal(
      text,
      "2 problem(s) for the workspace: 1 error, 1 warning\na.ts:4:14 error: Type 'string' is not assignable to type 'number'. [ts 2322]\nb.ts:2:1 warning: unused [ts 6133]",
    );
    assert.equal(formatDiagnostics([], 'src/x.ts'), 'No problems reported for src/x.ts.');
  });

  it('formats locations and caps long lists', () => {
    assert.equal(formatLocations([{ path: 'a.ts', line: 1, column: 2, preview: 'export function f()' }], 'definition(s)'), '1 definition(s):\na.ts:1:2  export function f()');
    const many = Array.from({ length: 205 }, (_, i) => ({ path: 'a.ts', line: i + 1, column: 1 }));
    assert.match(formatLocations(many, 'reference(s)'), /… 5 more not shown$/);
    assert.equal(formatLocations([], 'reference(s)'), 'No reference(s) found.');
  });
});
