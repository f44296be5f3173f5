import assert from 'node:assert/strict';
import { exposedToolName, serverNameProblem, uniqueToolName } from '../../../src/runtime/mcp/tool-names';
import { McpServersSchema } from '../../../src/runtime/mcp/server-config';

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool>, with characters providers refuse replaced', () => {
    assert.equal(exposedToolName('github', 'create_issue'), 'mcp__github__create_issue');
    assert.equal(exposedToolName('x', 'weird.name/with spaces'), 'mcp__x__weird_name_with_spaces');
  });

  it('stay within 64 characters, the same name every time, different for different long names', () => {
    const a = exposedToolName('server', 'a'.repeat(100));
    const b = exposedToolName('server', `${'a'.repeat(99)}b`);
    assert.match(a, PROVIDER_NAME);
    assert.match(b, PROVIDER_NAME);
    assert.equal(a, exposedToolName('server', 'a'.repeat(100)));
    assert.notEqual(a, b);
  });

  it('two tools that sanitize alike get distinct names', () => {
    const taken = new Set(['mcp__x__a_b']);
    const second = uniqueToolName(exposedToolName('x', 'a.b'), 'a.b', taken);
    assert.notEqual(second, 'mcp__x__a_b');
    assert.match(second, PROVIDER_NAME);
  });

  it('server names: letters, digits, - and single _, at most 32', () => {
    assert.equal(serverNameProblem('my_db-2'), undefined);
    for (const bad of ['a__b', '_a', 'a_', 'a.b', '', 'x'.repeat(33)]) assert.match(String(serverNameProblem(bad)), /not a valid server name/, bad);
  });

  it('the mcpServers config refuses bad names and servers with neither or both of command and url', () => {
    const issues = (v: unknown) => {
      const r = McpServersSchema.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    assert.deepEqual(issues({ ok: { command: 'srv' }, web: { url: 'http://127.0.0.1:1/mcp' } }), []);
    assert.match(issues({ 'a.b': { command: 'srv' } }).join(), /a\.b: "a\.b" is not a valid server name/);
    assert.match(issues({ x: {} }).join(), /x: needs "command" .* or "url"/);
    assert.match(issues({ x: { command: 'a', url: 'http://h/' } }).join(), /has both "command" and "url"/);
    assert.match(issues({ x: { url: 'ftp://h/' } }).join(), /x\.url: must be an http:\/\/ or https:\/\/ URL/);
  });
});
