// The `agentcli` executable. `--version` is answered before anything else loads. The rest of the CLI travels in this
// same file as compressed text in trailing comments (so parsing this file stays cheap): the CLI body, and bodies of
// their own for the packages only some runs use (the MCP client, Azure identity), loaded the first time the CLI
// requires them. The first start of each unpacks it into ~/.cache/agentcli (<name>-<hash>.js) and compiles it through
// a V8 code cache kept there; later starts read the unpacked text (no base64, no decompression) and skip most compile
// work. A home that cannot be written only costs the cache: the embedded text is compiled as it is.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { RUNTIME_VERSION } from '../version';

/**
 * Set at build time (JSON text): each embedded body's hash and the length of its wrapped source, and which body serves
 * each package module the CLI body requires. Undefined when running from source.
 */
declare const __AGENTCLI_BODIES__: string | undefined;
declare const __AGENTCLI_PACKAGE_BODIES__: string;
const BODY_MARKER = '/*AGENTCLI-BODY:';

type BodyInfo = { hash: string; length: number };
type MainModule = { main(argv: string[]): Promise<number> };

/** How a body's source is wrapped: the CommonJS module function, as Node wraps a file. */
function wrapped(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

let ownText: string | undefined;

/** The body `name` from its trailing comment of the built file (brotli, base64), wrapped. */
function embeddedSource(name: string): string {
  ownText ??= readFileSync(__filename, 'latin1');
  const marker = `${BODY_MARKER}${name}:`;
  const at = ownText.lastIndexOf(marker);
  if (at < 0) throw new Error(`${__filename} is incomplete: its ${name} body is missing; rebuild with npm run build`);
  const end = ownText.indexOf('*/', at);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { brotliDecompressSync } = require('node:zlib') as typeof import('node:zlib');
  return wrapped(brotliDecompressSync(Buffer.from(ownText.slice(at + marker.length, end), 'base64')).toString('utf8'));
}

function cacheDir(): string | undefined {
  if (process.env.AGENTCLI_NO_CODE_CACHE) return undefined;
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

function readOrUndefined<T>(file: string | undefined, how: (file: string) => T): T | undefined {
  try {
    return file ? how(file) : undefined;
  } catch {
    return undefined;
  }
}

/** The unpacked copy and code cache of a body in the cache folder. */
function bodyFiles(dir: string, name: string, info: BodyInfo): { source: string; cache: string } {
  return { source: path.join(dir, `${name}-${info.hash}.js`), cache: path.join(dir, `${name}-${info.hash}-${process.version}.v8cache`) };
}

/** What to write at exit: the unpacked text and code caches of the bodies this run loaded and found missing. */
const pendingWrites: Array<() => void> = [];

function writeAtExit(dir: string, bodies: Record<string, BodyInfo>): void {
  // Written at exit, so each cache also covers the functions this run compiled lazily.
  process.once('exit', () => {
    try {
      for (const write of pendingWrites) write();
      // Files of other builds (an upgrade) would only pile up; those of this build's bodies stay, loaded or not.
      const current = new Set(Object.entries(bodies).flatMap(([name, info]) => Object.values(bodyFiles(dir, name, info)).map((f) => path.basename(f))));
      const ours = new RegExp(`^(${Object.keys(bodies).join('|')})-[0-9a-f]{16}(-v[0-9.]+\\.v8cache|\\.js)$`);
      for (const name of readdirSync(dir)) if (ours.test(name) && !current.has(name)) rmSync(path.join(dir, name), { force: true });
    } catch {
      // a read-only home: run without a cache
    }
  });
}

/** Loads the embedded bodies on demand, each compiled once per process. */
function bodyLoader(bodies: Record<string, BodyInfo>, packageBodies: Record<string, string>) {
  const dir = cacheDir();
  const loaded = new Map<string, Record<string, unknown>>();
  /** The require a body gets: package modules built as bodies of their own come from those, the rest from Node. */
  const bodyRequire = (id: string): unknown => {
    const name = packageBodies[id];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the body's own require: Node built-ins
    return name ? load(name)[id] : require(id);
  };
  const load = (name: string): Record<string, unknown> => {
    const known = loaded.get(name);
    if (known) return known;
    const info = bodies[name];
    if (!info) throw new Error(`${__filename} has no ${name} body; rebuild with npm run build`);
    const files = dir ? bodyFiles(dir, name, info) : undefined;
    const unpacked = readOrUndefined(files?.source, (f) => readFileSync(f, 'utf8'));
    const source = unpacked !== undefined && unpacked.length === info.length ? unpacked : embeddedSource(name);
    const cachedData = readOrUndefined(files?.cache, (f) => readFileSync(f));
    const script = new vm.Script(source, { filename: path.join(__dirname, `agentcli-${name}.js`), ...(cachedData ? { cachedData } : {}) });
    const mod = { exports: {} as Record<string, unknown> };
    (script.runInThisContext() as (...a: unknown[]) => void)(mod.exports, bodyRequire, mod, __filename, __dirname);
    loaded.set(name, mod.exports);
    const writes: Array<() => void> = [];
    if (files && source !== unpacked) writes.push(() => writeWhole(files.source, source));
    if (files && (!cachedData || script.cachedDataRejected)) writes.push(() => writeWhole(files.cache, script.createCachedData()));
    if (dir && writes.length > 0) {
      if (pendingWrites.length === 0) writeAtExit(dir, bodies);
      pendingWrites.push(...writes);
    }
    return mod.exports;
  };
  return load;
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`agentcli ${RUNTIME_VERSION}\n`);
} else {
  // Built: the define makes this constant, so the bundle keeps only the embedded path. From source (tsx): import.
  const load: () => Promise<MainModule> =
    typeof __AGENTCLI_BODIES__ === 'string'
      ? async () =>
          bodyLoader(JSON.parse(__AGENTCLI_BODIES__) as Record<string, BodyInfo>, JSON.parse(__AGENTCLI_PACKAGE_BODIES__) as Record<string, string>)(
            'main',
          ) as unknown as MainModule
      : () => import('./main');
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
