// Builds the separate bundles: the runtime CLI, the SDK, the protocol, and (when present) the extension and webview.
import * as esbuild from 'esbuild';
import { existsSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';

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

// `import fs from 'node:fs'` compiles to a copy of the module's every export as a getter, made by each importing
// module as it loads (63 copies, ~10 ms of a -p start). In the CLI body such imports of Node built-ins become plain
// `import fs = require('node:fs')`, which is what that default import means for a CommonJS built-in. In the extension
// body `import * as vscode from 'vscode'` does the same (30 modules, each copying the API's ~190 names).
const importsAsRequire = (modules) => ({
  name: 'imports-as-require',
  setup(build) {
    const line = new RegExp(`^import (?:\\* as )?([A-Za-z_$][\\w$]*) from '(${modules.source})';$`, 'gm');
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      return { contents: text.replace(line, "import $1 = require('$2');"), loader: 'ts' };
    });
  },
});
const builtinImportsAsRequire = importsAsRequire(/node:[a-z_/]+/);

// The extension host answers each `require('vscode')` by looking up which extension asks (the caller's path): the
// extension body's modules share one answer, through a module that requires it once.
const vscodeRequiredOnce = {
  name: 'vscode-required-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "module.exports = require('vscode');", loader: 'js' }));
  },
};

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: 'linked', logLevel: 'warning', legalComments: 'none', plugins: [zodEnglishOnly] };
const node = { ...common, platform: 'node', target: 'node20', format: 'cjs' };

// Packages only some runs use travel as bodies of their own, unpacked and compiled the first time the CLI requires
// them: the MCP client (with its JSON-schema validator) when MCP servers are configured, Azure identity for cloudhub
// with Entra ID, the `openai` package for model lists, health probes and its error classes (a chat request goes over
// node:http), the shell parser with the first command judged (src/runtime/permissions/shell-split.ts requires it then),
// vscode-jsonrpc for `--mode rpc` and the ACP SDK for `--acp`. Each bundles all it uses (the MCP client its own zod):
// nothing is shared with the CLI body.
const PACKAGE_BODIES = { mcp: '@modelcontextprotocol/sdk', azure: '@azure/identity', openai: 'openai', shell: 'unbash', jsonrpc: 'vscode-jsonrpc', acp: '@agentclientprotocol/sdk' };

/**
 * The built-in tools' input JSON Schemas as the runtime makes them (scripts/core-tool-parameters.ts, bundled and run
 * here), built into the CLI body so a start neither builds those zod schemas nor converts them.
 */
async function coreToolParameters() {
  const script = await esbuild.build({ ...node, sourcemap: false, write: false, entryPoints: ['scripts/core-tool-parameters.ts'], outfile: 'tool-parameters.js' });
  const json = execFileSync(process.execPath, ['-'], { input: script.outputFiles[0].text, encoding: 'utf8' });
  JSON.parse(json); // fails the build on anything but JSON
  return json;
}

/** How the entry wraps a body before compiling it (see src/runtime/cli/entry.ts). */
const wrapped = (source) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
const minifiedBody = { ...node, write: false, minify: true, sourcemap: false };

// The bodies are built first and appended to the entry as brotli+base64 text in trailing comments; the entry decodes
// each (once: it keeps the text in its cache folder) and compiles it through a V8 code cache. Base64 never contains
// `*/`, so the comments are safe.
async function cliBuild() {
  const externals = Object.values(PACKAGE_BODIES).flatMap((pkg) => [pkg, `${pkg}/*`]);
  const main = await esbuild.build({
    ...minifiedBody,
    plugins: [...minifiedBody.plugins, builtinImportsAsRequire],
    entryPoints: ['src/runtime/cli/main.ts'],
    outfile: 'main.js',
    external: externals,
    metafile: true,
    define: { __AGENTCLI_CORE_TOOL_PARAMETERS__: JSON.stringify(await coreToolParameters()) },
  });
  const required = new Set(Object.values(main.metafile.outputs)[0].imports.filter((i) => i.external).map((i) => i.path));
  const bodies = { main: main.outputFiles[0].text };
  const packageBodies = {};
  for (const [name, pkg] of Object.entries(PACKAGE_BODIES)) {
    // The body exports each module the CLI body requires of the package, each evaluated on first use.
    const ids = [...required].filter((id) => id === pkg || id.startsWith(`${pkg}/`));
    if (ids.length === 0) throw new Error(`esbuild.mjs: the CLI no longer requires ${pkg}; remove it from PACKAGE_BODIES`);
    const contents = `module.exports = {${ids.map((id) => `get ${JSON.stringify(id)}() { return require(${JSON.stringify(id)}); }`).join(',')}};`;
    const stdin = { contents, resolveDir: process.cwd(), loader: 'js', sourcefile: `${name}-body.js` };
    bodies[name] = (await esbuild.build({ ...minifiedBody, stdin, outfile: `${name}.js` })).outputFiles[0].text;
    for (const id of ids) packageBodies[id] = name;
  }
  const info = {};
  const comments = [];
  for (const [name, source] of Object.entries(bodies)) {
    info[name] = { hash: createHash('sha256').update(source).digest('hex').slice(0, 16), length: wrapped(source).length };
    const packed = brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length } });
    comments.push(`/*AGENTCLI-BODY:${name}:${packed.toString('base64')}*/`);
  }
  return {
    ...node,
    entryPoints: ['src/runtime/cli/entry.ts'],
    outfile: 'dist/agentcli.js',
    minify: true,
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
    define: { __AGENTCLI_BODIES__: JSON.stringify(JSON.stringify(info)), __AGENTCLI_PACKAGE_BODIES__: JSON.stringify(JSON.stringify(packageBodies)) },
    footer: { js: comments.join('\n') },
  };
}

const builds = [
  // One Node >= 20 file with a shebang; `--version` is answered before the rest loads.
  await cliBuild(),
  { ...node, entryPoints: ['src/sdk/index.ts'], outfile: 'dist/sdk.js' },
  { ...node, entryPoints: ['src/protocol/index.ts'], outfile: 'dist/protocol.js' },
];
if (existsSync('src/extension/extension.ts')) {
  // The bundle, and the entry VS Code loads (src/extension/entry.ts), which compiles it through a code cache made for
  // exactly this build: the entry knows the bundle's hash and length. In watch mode the bundle changes under an entry
  // built once, so the entry is built to use no cache.
  // Built as the module function the entry compiles (no copy of the text to wrap it at each activation).
  const body = {
    ...node,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension-body.js',
    external: ['vscode'],
    plugins: [...node.plugins, importsAsRequire(/node:[a-z_/]+|vscode/), vscodeRequiredOnce],
    minify: true,
    banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
    footer: { js: '})' },
  };
  let bodyInfo = { hash: null, length: -1 };
  if (watch) builds.push(body);
  else {
    const out = await esbuild.build({ ...body, write: false });
    for (const f of out.outputFiles) {
      mkdirSync(path.dirname(f.path), { recursive: true });
      writeFileSync(f.path, f.contents);
    }
    const js = out.outputFiles.find((f) => f.path.endsWith('.js')).text;
    bodyInfo = { hash: createHash('sha256').update(js).digest('hex').slice(0, 16), length: js.length };
  }
  builds.push({
    ...node,
    entryPoints: ['src/extension/entry.ts'],
    outfile: 'dist/extension.js',
    minify: true,
    sourcemap: false,
    define: { __AGENTCLI_EXTENSION_BODY__: JSON.stringify(JSON.stringify(bodyInfo)) },
  });
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
