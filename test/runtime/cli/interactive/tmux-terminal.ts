/**
 * A real pseudo-terminal for driving `agentcli` interactively: a private tmux server (own socket, no user config)
 * running one command in a fixed-size window. Keys go in with `send-keys`; the screen comes back with `capture-pane`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, makeWorkspace, testEnv } from '../../../helpers/runtime-process';
import { requirePrerequisite } from '../../../helpers/prerequisite';
import { startOpenAIStub, type OpenAIStub } from '../../../stubs/openai-stub';
import { makeTempDir } from '../../../helpers/temp-dir';

/** Why tmux cannot be used here, or undefined when it can (installing it with apt-get when missing and root). */
export function tmuxUnavailableReason(): string | undefined {
  if (spawnSync('tmux', ['-V']).status === 0) return undefined;
  if (process.getuid?.() !== 0) return 'tmux is not installed and the tests do not run as root, so they cannot apt-get install it';
  const install = spawnSync('apt-get', ['install', '-y', 'tmux'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (install.status === 0 && spawnSync('tmux', ['-V']).status === 0) return undefined;
  return `tmux is not installed and "apt-get install -y tmux" failed (exit ${install.status})`;
}

export interface TerminalOptions {
  cwd: string;
  /** The whole environment of the command (the tmux server starts with it). */
  env: NodeJS.ProcessEnv;
  /** The program and its arguments. */
  command: string[];
  width?: number;
  height?: number;
}

const EXIT_MARK = '__EXIT';
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class TmuxTerminal {
  private constructor(
    private readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  static start(opts: TerminalOptions): TmuxTerminal {
    const dir = makeTempDir('agentcli-tmux-');
    writeFileSync(path.join(dir, 'tmux.conf'), 'set -g history-limit 20000\nset -g status off\n');
    const env = { ...opts.env, TERM: 'xterm-256color' };
    const term = new TmuxTerminal(dir, env);
    // After the program exits, print its exit code and keep the pane alive so the screen can still be read.
    const script = `${opts.command.map(shellQuote).join(' ')}; echo "${EXIT_MARK} $?__"; sleep 3600`;
    term.tmux(['-f', path.join(dir, 'tmux.conf'), 'new-session', '-d', '-s', 'main', '-x', String(opts.width ?? 120), '-y', String(opts.height ?? 50), '-c', opts.cwd, script]);
    return term;
  }

  /** Types text literally (no key names interpreted). */
  type(text: string): void {
    this.tmux(['send-keys', '-t', 'main', '-l', text]);
  }

  /** Presses keys by tmux name: `Enter`, `C-c`, `C-d`. */
  press(...keys: string[]): void {
    this.tmux(['send-keys', '-t', 'main', ...keys]);
  }

  /** Types a line and presses Enter. */
  line(text: string): void {
    this.type(text);
    this.press('Enter');
  }

  /** Everything printed so far (scrollback included), wrapped lines joined; with `escapes`, colors kept as SGR codes. */
  screen(opts: { escapes?: boolean } = {}): string {
    const args = ['capture-pane', '-p', '-J', '-S', '-', '-t', 'main', ...(opts.escapes ? ['-e'] : [])];
    return this.tmux(args).replace(/\s+$/, '');
  }

  /** The exit code printed after the program ended, or undefined while it runs. */
  exitCode(): number | undefined {
    const m = new RegExp(`${EXIT_MARK} (\\d+)__`).exec(this.screen());
    return m ? Number(m[1]) : undefined;
  }

  /**
   * Waits until the screen satisfies `test` (a regex matched `count` times, or a predicate) and returns the screen.
   * The bound only keeps a broken run from hanging the suite; it is not a timing assertion.
   */
  async waitFor(test: RegExp | ((screen: string) => boolean), opts: { count?: number; timeoutMs?: number } = {}): Promise<string> {
    const count = opts.count ?? 1;
    const check =
      typeof test === 'function'
        ? test
        : (s: string) => (s.match(new RegExp(test.source, test.flags.includes('g') ? test.flags : test.flags + 'g'))?.length ?? 0) >= count;
    const deadline = Date.now() + (opts.timeoutMs ?? 15000);
    for (;;) {
      const screen = this.screen();
      if (check(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${String(test)} (x${count}); the screen was:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): void {
    spawnSync('tmux', ['-S', path.join(this.dir, 'sock'), 'kill-server'], { env: this.env, stdio: 'ignore' });
    rmSync(this.dir, { recursive: true, force: true });
  }

  private tmux(args: string[]): string {
    return execFileSync('tmux', ['-S', path.join(this.dir, 'sock'), ...args], { env: this.env, encoding: 'utf8' });
  }
}

/**
 * The lifecycle every pseudo-terminal suite shares: skip without tmux, a fresh stub model per test, and a terminal
 * closed after each test. `open` starts `agentcli [args]` in a new workspace whose config points at the stub.
 */
export function useTmuxSession(suite: Mocha.Suite): {
  readonly stub: OpenAIStub;
  readonly cwd: string;
  open(args?: string[], files?: Record<string, string>, env?: Record<string, string>): TmuxTerminal;
} {
  suite.timeout(60_000);
  let stub: OpenAIStub | undefined;
  let term: TmuxTerminal | undefined;
  let cwd: string | undefined;
  suite.beforeAll(function () {
    requirePrerequisite(this, tmuxUnavailableReason());
    assert.ok(existsSync(CLI), `${CLI} is missing: run "npm run build" before these tests`);
  });
  suite.beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  suite.afterEach(async () => {
    term?.close();
    term = undefined;
    await stub?.close();
  });
  return {
    get stub() {
      assert.ok(stub, 'the stub starts before each test');
      return stub;
    },
    get cwd() {
      assert.ok(cwd !== undefined, 'open() a terminal first');
      return cwd;
    },
    open(args = [], files = {}, env = {}) {
      assert.ok(stub, 'the stub starts before each test');
      cwd = makeWorkspace(files, stub.origin);
      term = TmuxTerminal.start({ cwd, env: testEnv(env), command: [process.execPath, CLI, ...args] });
      return term;
    },
  };
}
