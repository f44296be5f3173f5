// The `agentcli` executable. `--version` is answered before anything else loads. The rest of the CLI travels in this
// same file as compressed text inside a trailing comment (so parsing this file stays cheap). The first start unpacks
// it into ~/.cache/agentcli (main-<hash>.js) and compiles it through a V8 code cache kept there; later starts read the
// unpacked text (no base64, no gunzip) and skip most compile work.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { RUNTIME_VERSION } from '../version';

/** Hash and length of the embedded source, computed at build time; undefined when running from source. */
declare const __AGENTCLI_MAIN_HASH__: string | undefined;
declare const __AGENTCLI_MAIN_LENGTH__: number;
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

function cacheDir(): string | undefined {
  const base = process.env.XDG_CACHE_HOME || (os.homedir() ? path.join(os.homedir(), '.cache') : undefined);
  return base ? path.join(base, 'agentcli') : undefined;
}

/** Writes `data` whole or not at all (a temp file renamed), so a reader never sees half of it. */
function writeWhole(file: string, data: string | Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * Compiles the CLI body with a code cache; falls back to plain compilation if anything about the cache fails. The
 * body comes from its unpacked copy when that is there and whole (its length is known at build time), else from the
 * embedded text, which is then unpacked for the next start.
 */
function loadMain(): MainModule {
  const dir = process.env.AGENTCLI_NO_CODE_CACHE ? undefined : cacheDir();
  const sourceFile = dir && path.join(dir, `main-${__AGENTCLI_MAIN_HASH__}.js`);
  const cacheFile = dir && path.join(dir, `main-${__AGENTCLI_MAIN_HASH__}-${process.version}.v8cache`);
  const read = <T>(file: string | undefined, how: (file: string) => T): T | undefined => {
    try {
      return file ? how(file) : undefined;
    } catch {
      return undefined;
    }
  };
  const unpacked = read(sourceFile, (f) => readFileSync(f, 'utf8'));
  const source = unpacked !== undefined && unpacked.length === __AGENTCLI_MAIN_LENGTH__ ? unpacked : embeddedSource();
  const cachedData = read(cacheFile, (f) => readFileSync(f));
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapper, { filename: path.join(__dirname, 'agentcli-main.js'), ...(cachedData ? { cachedData } : {}) });
  const mod = { exports: {} as MainModule };
  (script.runInThisContext() as (...a: unknown[]) => void)(mod.exports, require, mod, __filename, __dirname);
  const writeSource = sourceFile && source !== unpacked;
  const writeCache = cacheFile && (!cachedData || script.cachedDataRejected);
  if (dir && (writeSource || writeCache)) {
    // Written at exit, so the cache also covers the functions this run compiled lazily.
    process.once('exit', () => {
      try {
        if (writeSource) writeWhole(sourceFile, source);
        if (writeCache) writeWhole(cacheFile, script.createCachedData());
        // Files of other builds (an upgrade) would only pile up: about 1 MB (cache) and 3 MB (text) each.
        for (const name of readdirSync(dir)) {
          const ours = /^main-.*\.(v8cache|js)$/.test(name);
          if (ours && name !== path.basename(sourceFile ?? '') && name !== path.basename(cacheFile ?? '')) rmSync(path.join(dir, name), { force: true });
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
    typeof __AGENTCLI_MAIN_HASH__ === 'string' ? async () => loadMain() : () => import('./main');
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
