// The `agentcli` executable. `--version` is answered before anything else loads. The rest of the CLI travels in this
// same file as compressed text inside a trailing comment (so parsing this file stays cheap), and is compiled through a
// V8 code cache kept in ~/.cache/agentcli, so later starts skip most compile work.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { RUNTIME_VERSION } from '../version';

/** Hash of the embedded source, computed at build time; undefined when running from source. */
declare const __AGENTCLI_MAIN_HASH__: string | undefined;
const MAIN_MARKER = '/*AGENTCLI-MAIN:';

/** The CLI body from the trailing comment of the built file (gzip, base64). */
function embeddedSource(): string {
  const text = readFileSync(__filename, 'latin1');
  const at = text.lastIndexOf(MAIN_MARKER);
  if (at < 0) throw new Error(`${__filename} is incomplete: the CLI body is missing; rebuild with npm run build`);
  const end = text.indexOf('*/', at);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { gunzipSync } = require('node:zlib') as typeof import('node:zlib');
  return gunzipSync(Buffer.from(text.slice(at + MAIN_MARKER.length, end), 'base64')).toString('utf8');
}

type MainModule = { main(argv: string[]): Promise<number> };

function cacheFile(): string | undefined {
  const base = process.env.XDG_CACHE_HOME || (os.homedir() ? path.join(os.homedir(), '.cache') : undefined);
  if (!base) return undefined;
  return path.join(base, 'agentcli', `main-${__AGENTCLI_MAIN_HASH__}-${process.version}.v8cache`);
}

/** Compiles the embedded CLI with a code cache; falls back to plain compilation if anything about the cache fails. */
function loadEmbeddedMain(source: string): MainModule {
  const file = process.env.AGENTCLI_NO_CODE_CACHE ? undefined : cacheFile();
  let cachedData: Buffer | undefined;
  try {
    if (file) cachedData = readFileSync(file);
  } catch {
    cachedData = undefined;
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapper, { filename: path.join(__dirname, 'agentcli-main.js'), ...(cachedData ? { cachedData } : {}) });
  const mod = { exports: {} as MainModule };
  (script.runInThisContext() as (...a: unknown[]) => void)(mod.exports, require, mod, __filename, __dirname);
  if (file && (!cachedData || script.cachedDataRejected)) {
    // Written at exit, so the cache also covers the functions this run compiled lazily.
    process.once('exit', () => {
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, file);
        // Caches of other builds (an upgrade) would only pile up: about 1 MB each.
        for (const name of readdirSync(path.dirname(file))) {
          if (/^main-.*\.v8cache$/.test(name) && name !== path.basename(file)) rmSync(path.join(path.dirname(file), name), { force: true });
        }
      } catch {
        // a read-only home: run without a cache
      }
    });
  }
  return mod.exports;
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`agentcli ${RUNTIME_VERSION}\n`);
} else {
  // Built: the define makes this constant, so the bundle keeps only the embedded path. From source (tsx): import.
  const load: () => Promise<MainModule> =
    typeof __AGENTCLI_MAIN_HASH__ === 'string' ? async () => loadEmbeddedMain(embeddedSource()) : () => import('./main');
  load()
    .then((m) => m.main(argv))
    .then((code) => {
      process.exitCode = code;
    })
    .catch((e: unknown) => {
      process.stderr.write(`agentcli: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
