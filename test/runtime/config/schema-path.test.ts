import { strict as assert } from 'node:assert';
import { parseRawValue, schemaAtKey } from '../../../src/runtime/config/schema-path';

describe('config schema paths: sections built on first use (z.lazy) read like any other', () => {
  it('a hooks or mcpServers value given on the command line is JSON, as for other sections', () => {
    const hooks = { before_tool: [{ command: './check.sh', matcher: 'run_*' }] };
    assert.deepEqual(parseRawValue('hooks', schemaAtKey('hooks'), JSON.stringify(hooks)), hooks);
    const servers = { files: { command: 'npx', args: ['-y', 'files-server'] } };
    assert.deepEqual(parseRawValue('mcpServers', schemaAtKey('mcpServers'), JSON.stringify(servers)), servers);
  });

  it('text that is not JSON names the key and an example', () => {
    assert.throws(() => parseRawValue('hooks', schemaAtKey('hooks'), 'not json'), /"hooks" expects a JSON value such as/);
  });
});
