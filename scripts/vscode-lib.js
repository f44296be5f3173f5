// Starts code-server (the real VS Code server + web workbench, from npm, on Node 24) and Debian's chromium for
// tests and `npm run start:vscode`. See scripts/vscode-setup.sh for the install.
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');
const path = require('path');

const TOOLS = process.env.VSC_TOOLS || path.resolve(__dirname, '..', '.vscode-tools');
const NODE24 = path.join(TOOLS, 'node24/node_modules/node/bin/node');
const ENTRY = path.join(TOOLS, 'cs/node_modules/code-server/out/node/entry.js');

function assertInstalled() {
  for (const f of [NODE24, ENTRY]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run \`bash scripts/vscode-setup.sh\` first`);
  }
}

const freePort = () =>
  new Promise((res, rej) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => res(p));
    }).on('error', rej);
  });

/**
 * devMode: needed for the extensionDevelopmentPath/extensionTestsPath payload; it also hides toasts and skips dialogs.
 * installExtensions: folders symlinked as <publisher>.<name>-<version> into a fresh extensions dir (toasts stay visible).
 * installVsix: .vsix files installed with the server's --install-extension before it starts.
 * userSettings: written to the user settings.json of this (fresh) user-data dir.
 * port: fixed port (default: a free one). fresh: wipe runDir first (default true).
 */
async function startCodeServer({ runDir, devMode = false, env = {}, installExtensions = [], installVsix = [], userSettings, port, fresh = true, host = '127.0.0.1' }) {
  assertInstalled();
  if (fresh) fs.rmSync(runDir, { recursive: true, force: true });
  if (userSettings) {
    fs.mkdirSync(path.join(runDir, 'user-data', 'User'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'user-data', 'User', 'settings.json'), JSON.stringify(userSettings, null, 2));
  }
  const extDir = path.join(runDir, 'extensions');
  fs.mkdirSync(extDir, { recursive: true });
  for (const dir of installExtensions) {
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const link = path.join(extDir, `${m.publisher}.${m.name}-${m.version}`);
    fs.rmSync(link, { recursive: true, force: true });
    fs.symlinkSync(path.resolve(dir), link);
  }
  for (const vsix of installVsix) {
    // the CLI installs like a user would (unpacks into the extensions dir and lists it in extensions.json)
    require('child_process').execFileSync(NODE24, [ENTRY, '--extensions-dir', extDir, '--user-data-dir', path.join(runDir, 'user-data'),
      '--install-extension', path.resolve(vsix)], { stdio: 'ignore', env: { ...process.env,
      XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'), XDG_DATA_HOME: path.join(runDir, 'xdg-data') } });
  }
  const p = port || (await freePort());
  const args = [ENTRY, '--bind-addr', `${host}:${p}`, '--auth', 'none',
    '--user-data-dir', path.join(runDir, 'user-data'), '--extensions-dir', extDir,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--ignore-last-opened'];
  if (devMode) args.push('--vscode-option', 'enable-smoke-test-driver');
  const proc = spawn(NODE24, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, // inherited by the extension host (and the runtime it spawns)
      XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'), XDG_DATA_HOME: path.join(runDir, 'xdg-data') },
  });
  const log = fs.createWriteStream(path.join(runDir, 'code-server.log'));
  proc.stdout.pipe(log);
  proc.stderr.pipe(log);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('code-server did not start within 60 s')), 60000);
    proc.stdout.on('data', (d) => { if (/HTTP server listening on/.test(d)) { clearTimeout(timer); resolve(); } });
    proc.on('exit', (c) => { clearTimeout(timer); reject(new Error(`code-server exited with ${c}; see ${runDir}/code-server.log`)); });
  });
  const authority = `${host}:${p}`;
  return {
    authority, port: p, proc,
    stop: () => { try { process.kill(-proc.pid, 'SIGTERM'); } catch { /* already gone */ } }, // its own process group
    url: (folder, payload) => `http://${authority}/?folder=${encodeURIComponent(path.resolve(folder))}` +
      (payload ? `&payload=${encodeURIComponent(JSON.stringify(payload))}` : ''),
    remote: (p2) => `vscode-remote://${authority}${path.resolve(p2)}`,
  };
}

function launchChromium(runDir, { headless = true } = {}) {
  const { chromium } = require('playwright-core');
  return chromium.launchPersistentContext(path.join(runDir, 'chromium-profile'), {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Editor preferences for test and demo runs: no welcome page, no built-in AI chat beside ours, no parent-repo prompt. */
const QUIET_USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'git.openRepositoryInParentFolders': 'never',
  'telemetry.telemetryLevel': 'off',
};

module.exports = { QUIET_USER_SETTINGS, startCodeServer, launchChromium, freePort, TOOLS, NODE24, ENTRY };
