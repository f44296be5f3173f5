import assert from 'node:assert/strict';
import { isCi, requirePrerequisite } from './prerequisite';

describe('test prerequisites', () => {
  it('a missing prerequisite fails under CI=true instead of skipping', () => {
    const ctx = { skip: () => assert.fail('must not skip in CI') } as unknown as Mocha.Context;
    assert.throws(() => requirePrerequisite(ctx, 'no browser', { CI: 'true' }), /missing test prerequisite under CI=true: no browser/);
  });

  it('outside CI it skips, and nothing happens when the prerequisite is there', () => {
    let skipped = 0;
    const ctx = { skip: () => void skipped++ } as unknown as Mocha.Context;
    const log = console.log;
    console.log = () => undefined;
    try {
      requirePrerequisite(ctx, 'no browser', {});
      requirePrerequisite(ctx, undefined, { CI: 'true' });
    } finally {
      console.log = log;
    }
    assert.equal(skipped, 1);
    assert.equal(isCi({ CI: '1' }), true);
    assert.equal(isCi({ CI: 'false' }), false);
  });
});
