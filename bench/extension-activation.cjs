// One cold activation of the built extension (dist/extension.js) in a fresh Node process, with a fake `vscode` module
// that accepts every API call: it measures the extension's own work (bundle load + activate()), not VS Code's.
// Prints one JSON line: { loadMs, activateMs, totalMs }. Used by bench/run.ts; the real extension host's figure is
// printed by the e2e run (`activation: activate() took …`).
const Module = require('node:module');
const path = require('node:path');

const anything = new Proxy(function () {}, {
  get: (_t, p) => (p === 'then' ? undefined : p === Symbol.toPrimitive ? () => '' : anything),
  set: () => true,
  apply: () => anything,
  construct: () => anything,
});
class FakeDisposable {
  constructor(f) { this.f = f; }
  dispose() { this.f?.(); }
  static from(...d) { return new FakeDisposable(() => d.forEach((x) => x?.dispose?.())); }
}
class EventEmitter {
  constructor() { this.event = () => new FakeDisposable(); }
  fire() {}
  dispose() {}
}
// A plain object with every name the real API has (@types/vscode's top-level exports, about 190: what an ESM interop
// copy of it costs depends on the count), each accepting anything.
const fs = require('node:fs');
const declared = fs.readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8').matchAll(/^\texport (?:class|enum|namespace|const|function|let) ([A-Za-z_]+)/gm);
const fake = {};
for (const [, name] of declared) fake[name] = anything;
Object.assign(fake, { Disposable: FakeDisposable, EventEmitter });
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? fake : load.call(this, request, ...rest);
};

const root = path.resolve(__dirname, '..');
const t0 = performance.now();
const ext = require(path.join(root, 'dist', 'extension.js'));
const t1 = performance.now();
const context = { subscriptions: [], extensionUri: anything, extensionPath: root, secrets: anything, globalState: anything, workspaceState: anything, storageUri: anything, globalStorageUri: anything };
ext.activate(context);
const t2 = performance.now();
// The entry's code cache (src/extension/entry.ts): what this activation found; deactivation writes it when missing.
const cache = ext.codeCacheState();
ext.deactivate();
process.stdout.write(JSON.stringify({ loadMs: t1 - t0, activateMs: t2 - t1, totalMs: t2 - t0, cache }) + '\n');
process.exit(0);
