import assert from 'node:assert/strict';
import path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '../..');

/** The modules the panel's page evaluates as it starts: those reached from its entry by static imports only. */
async function startupModules(): Promise<{ startup: Set<string>; all: Set<string>; leaves: Set<string> }> {
  const result = await esbuild.build({
    entryPoints: [path.join(ROOT, 'webview-ui/src/main.ts')],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'iife',
    outfile: 'out.js',
    absWorkingDir: ROOT,
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const startup = new Set<string>();
  const queue = ['webview-ui/src/main.ts'];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (startup.has(file)) continue;
    startup.add(file);
    for (const imported of inputs[file]?.imports ?? []) if (imported.kind === 'import-statement') queue.push(imported.path);
  }
  // modules that import nothing (plain constants, such as the undo limits): no zod, no schema
  const leaves = new Set(Object.entries(inputs).filter(([, v]) => v.imports.length === 0).map(([k]) => k));
  return { startup, all: new Set(Object.keys(inputs)), leaves };
}

describe('chat panel start (what its page evaluates before the prompt box)', function () {
  this.timeout(60_000);

  it('does not evaluate zod or the schemas: the message checks load after the box is built', async () => {
    const { startup, all, leaves } = await startupModules();
    const eager = [...startup].filter((f) => f.includes('node_modules/zod/') || f.endsWith('webview-ui/src/model/contract.ts') || (f.startsWith('src/protocol/') && !leaves.has(f)));
    assert.deepEqual(eager, [], `evaluated at start: ${eager.join(', ')}`);
    // the checks are still in the bundle (loaded with import()), so every message is validated
    assert.ok(all.has('webview-ui/src/model/contract.ts'));
    assert.ok([...all].some((f) => f.includes('node_modules/zod/')));
  });
});
