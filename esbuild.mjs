// Builds the separate bundles: the runtime CLI, the SDK, the protocol, and (when present) the extension and webview.
import * as esbuild from 'esbuild';
import { existsSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

// zod re-exports every locale (~250 KB minified); error messages here are English, so bundle only `en`.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /locales\/index\.c?js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: path.resolve(args.resolveDir, args.path), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: 'linked', logLevel: 'warning', legalComments: 'none', plugins: [zodEnglishOnly] };
const node = { ...common, platform: 'node', target: 'node20', format: 'cjs' };

// The CLI body is built first and appended to the entry as gzip+base64 text in a trailing comment; the entry decodes it
// (once: it keeps the text in its cache folder) and compiles it through a V8 code cache. Base64 never contains `*/`, so the comment is safe.
async function cliBuild() {
  const body = await esbuild.build({ ...node, entryPoints: ['src/runtime/cli/main.ts'], write: false, minify: true, sourcemap: false, outfile: 'main.js' });
  const source = body.outputFiles[0].text;
  return {
    ...node,
    entryPoints: ['src/runtime/cli/entry.ts'],
    outfile: 'dist/agentcli.js',
    minify: true,
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
    define: { __AGENTCLI_MAIN_HASH__: JSON.stringify(createHash('sha256').update(source).digest('hex').slice(0, 16)), __AGENTCLI_MAIN_LENGTH__: String(source.length) },
    footer: { js: `/*AGENTCLI-MAIN:${gzipSync(source, { level: 9 }).toString('base64')}*/` },
  };
}

const builds = [
  // One Node >= 20 file with a shebang; `--version` is answered before the rest loads.
  await cliBuild(),
  { ...node, entryPoints: ['src/sdk/index.ts'], outfile: 'dist/sdk.js' },
  { ...node, entryPoints: ['src/protocol/index.ts'], outfile: 'dist/protocol.js' },
];
if (existsSync('src/extension/extension.ts')) {
  builds.push({ ...node, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], minify: true });
}
if (existsSync('webview-ui/src/main.ts')) {
  // In a directory of its own: it is the webview's localResourceRoot (with media/webview), the rest of dist/ is not.
  builds.push({ ...common, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: ['webview-ui/src/main.ts'], outfile: 'dist/webview/webview.js', minify: true });
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  chmodSync('dist/agentcli.js', 0o755);
}
