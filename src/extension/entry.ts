/**
 * The extension's entry (`main`): it compiles the bundle (`dist/extension-body.js`) through a V8 code cache, so a
 * window reload does not compile the activation code again (bundle load + activate() about 2× faster). The CLI does
 * the same for its body (src/runtime/cli/entry.ts).
 *
 * The cache is `<cache>/agentcli/extension-<build hash>-<node version>.v8cache` (`$XDG_CACHE_HOME` or `~/.cache`),
 * written whole (a temp file renamed, mode 0600) a few seconds after activation, or at deactivation, when there was
 * none or V8 refused it. Caches of other builds are removed then. A body that is not this build's, a read-only home or
 * `AGENTCLI_NO_CODE_CACHE=1` runs without one. No `vscode` import here: the body requires it, through this module.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

declare const __AGENTCLI_EXTENSION_BODY__: string;

type Body = { activate(context: unknown): unknown; deactivate?(): void };
/** What happened to the code cache in this activation (tests read it). */
export type CodeCacheState = 'off' | 'missing' | 'used' | 'rejected' | 'written';

const WRITE_AFTER_MS = 5000;
/** The bundle this entry was built with (no hash: built in watch mode, no cache). */
const info = JSON.parse(__AGENTCLI_EXTENSION_BODY__) as { hash: string | null; length: number };
const bodyFile = path.join(__dirname, 'extension-body.js');

function cacheFile(): string | undefined {
  if (process.env.AGENTCLI_NO_CODE_CACHE || info.hash === null) return undefined;
  const base = process.env.XDG_CACHE_HOME || (os.homedir() ? path.join(os.homedir(), '.cache') : undefined);
  return base ? path.join(base, 'agentcli', `extension-${info.hash}-${process.version}.v8cache`) : undefined;
}

function readCache(file: string | undefined): Buffer | undefined {
  try {
    return file ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

const source = readFileSync(bodyFile, 'utf8');
// A body rebuilt without its entry (watch mode) is not the one the cache was made from: compiled without it.
const cache = source.length === info.length ? cacheFile() : undefined;
const cachedData = readCache(cache);
// The body is built as a module function: `(function (exports, require, module, __filename, __dirname) {…})`.
const script = new vm.Script(source, {
  filename: bodyFile,
  ...(cachedData ? { cachedData } : {}),
});
let state: CodeCacheState = !cache ? 'off' : !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
const bodyModule = { exports: {} as Body };
(script.runInThisContext() as (...args: unknown[]) => void)(bodyModule.exports, require, bodyModule, bodyFile, __dirname);
const body = bodyModule.exports;

/** Writes the cache (whole) and removes those of other builds; a failure leaves things as they were. */
function writeCache(): void {
  if (!cache || (state !== 'missing' && state !== 'rejected')) return;
  try {
    const dir = path.dirname(cache);
    mkdirSync(dir, { recursive: true });
    const tmp = `${cache}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, cache);
    state = 'written';
    for (const name of readdirSync(dir)) {
      if (/^extension-[0-9a-f]{16}-v[0-9.]+\.v8cache$/.test(name) && !name.startsWith(`extension-${String(info.hash)}-`)) rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // a read-only or full cache folder: the next activation compiles without a cache
  }
}

export function activate(context: unknown): unknown {
  const result = body.activate(context);
  // Later, so the cache holds what activation and the first panel compiled, and the write does not delay them.
  setTimeout(writeCache, WRITE_AFTER_MS).unref();
  return result;
}

export function deactivate(): void {
  writeCache();
  body.deactivate?.();
}

export function codeCacheState(): CodeCacheState {
  return state;
}
