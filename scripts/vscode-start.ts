/**
 * Starts code-server on localhost with the extension installed from this folder and a workspace open; prints the URL
 * and runs until Ctrl-C. Called by scripts/start-vscode.sh (which installs and builds first).
 * Options: --port N (default 8080, or a free port if taken), --folder PATH, --demo-model.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QUIET_USER_SETTINGS, freePort, startCodeServer } from './vscode-lib';

const root = path.resolve(__dirname, '..');
const runDir = path.join(root, '.vscode-test-run', 'start');

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The demo walkthrough model (test/stubs/demo-model.ts), a scripted test double, as a child process. */
function startDemoModel(): Promise<{ origin: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'stubs', 'demo-model.ts'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the demo model server did not start within 20 s')), 20000);
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\S+)/.exec(d.toString());
      if (m) {
        clearTimeout(timer);
        resolve({ origin: new URL(m[1]!).origin, proc });
      }
    });
    proc.on('exit', (code) => reject(new Error(`the demo model server exited with ${code}`)));
  });
}

/** The window the demo model claims, so a whole walkthrough fits before the runtime compacts the conversation. */
const DEMO_CONTEXT_SIZE = 32768;

/** The folder next to the workspace that the demo's directory-access flow reads (outside the workspace). */
function placeStyleGuide(folder: string): void {
  const target = path.join(path.dirname(folder), 'style-guide');
  if (!fs.existsSync(target)) fs.cpSync(path.join(root, 'test', 'stubs', 'demo-model', 'style-guide'), target, { recursive: true });
}

function writeWorkspaceSettings(folder: string, patch: Record<string, unknown>): void {
  const dir = path.join(folder, '.vscode');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'settings.json');
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    /* none yet, or not plain JSON: start fresh */
  }
  fs.writeFileSync(file, `${JSON.stringify({ ...current, ...patch }, null, 2)}\n`);
}

async function main(): Promise<void> {
  fs.mkdirSync(runDir, { recursive: true });
  const folderArg = option('--folder');
  let folder: string;
  if (folderArg) {
    folder = path.resolve(folderArg);
    if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new Error(`--folder ${folderArg}: no such directory`);
  } else {
    // A fresh copy each start, so the demo's flows (failing tests to fix, a file to extend) find what they expect.
    folder = path.join(runDir, 'demo-workspace');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.cpSync(path.join(root, 'demo-workspace'), folder, { recursive: true });
  }
  const children: ChildProcess[] = [];
  if (process.argv.includes('--demo-model')) {
    const demo = await startDemoModel();
    children.push(demo.proc);
    writeWorkspaceSettings(folder, { 'agentcli.provider': 'ggufserver', 'agentcli.ggufserver.baseUrl': demo.origin, 'agentcli.ggufserver.model': 'demo-walkthrough', 'agentcli.ggufserver.contextSize': DEMO_CONTEXT_SIZE });
    if (!folderArg) placeStyleGuide(folder); // never write next to a folder of the user's
    console.log(`demo walkthrough model (a scripted test double) on ${demo.origin}: try the panel's example prompts`);
  }
  let port = Number(option('--port') ?? 8080);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`--port ${option('--port')}: give a port number from 1 to 65535`);
  const probe = await import('node:net').then(
    (net) => new Promise<boolean>((res) => net.createServer().once('error', () => res(false)).listen(port, '127.0.0.1', function (this: import('node:net').Server) { this.close(() => res(true)); })),
  );
  if (!probe) {
    const free = await freePort();
    console.log(`port ${port} is taken; using ${free}`);
    port = free;
  }
  const server = await startCodeServer({ runDir: path.join(runDir, 'code-server'), installExtensions: [root], port, userSettings: QUIET_USER_SETTINGS });
  const stop = () => {
    server.stop();
    for (const c of children) c.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  server.proc.on('exit', (code) => {
    console.error(`code-server exited (${code}); see ${runDir}/code-server/code-server.log`);
    for (const c of children) c.kill('SIGTERM');
    process.exit(1);
  });
  console.log(`\nVS Code with agentcli: ${server.url(folder)}\n(open it in a browser on this machine; Ctrl-C stops)`);
}

main().catch((e: unknown) => {
  console.error(`start-vscode: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
