import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PROTOCOL_DOC_PATH, renderProtocolDoc } from '../../scripts/protocol-doc';

describe('docs/protocol.md', () => {
  it('matches the schemas (run `npm run docs:protocol` after changing src/protocol)', () => {
    assert.equal(readFileSync(PROTOCOL_DOC_PATH, 'utf8'), renderProtocolDoc());
  });
});
