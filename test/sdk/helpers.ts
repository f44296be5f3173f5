import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Agent, type AgentOptions, type RuntimeClient } from '../../src/sdk';
import { startOpenAIStub, type OpenAIStub } from '../stubs/openai-stub';
import { makeTempDir } from '../helpers/temp-dir';

const ROOT = path.resolve(__dirname, '../..');
export const BUILT_CLI = path.join(ROOT, 'dist', 'agentcli.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds when dist/agentcli.js is missing or older than the runtime, protocol or SDK sources (running a test file alone). */
export function ensureRuntimeBuilt(): void {
  let built: number;
  try {
    built = statSync(BUILT_CLI).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = Math.max(...['runtime', 'protocol', 'sdk'].map((d) => newestMtime(path.join(ROOT, 'src', d))));
  if (built >= sources) return;
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'pipe' });
  } catch (e) {
    // Sources mid-edit may not build; an existing bundle is still a real runtime to test against.
    if (built === 0) throw e;
    process.stderr.write(`warning: rebuilding dist failed, testing the existing dist/agentcli.js: ${(e as Error).message.split('\n')[0]}\n`);
  }
}

/** The one workspace maker of the tests: files plus a project config pointing the ggufserver provider at the stub. */
export { makeWorkspace } from '../helpers/runtime-process';

/** Agent options for a test: the built runtime, the stub provider, an empty HOME, no inherited service settings. */
export function testAgentOptions(cwd: string, extra: Partial<AgentOptions> = {}): AgentOptions {
  const home = makeTempDir('sdk-home-');
  return {
    cwd,
    cliPath: BUILT_CLI,
    permissionMode: 'unrestricted',
    ...extra,
    env: {
      HOME: home,
      SERVICE_PROVIDER: 'ggufserver',
      SERVICE_MODEL: undefined,
      SERVICE_API_KEY: undefined,
      SERVICE_BASE_URL: undefined,
      SERVICE_DEBUG: undefined,
      ...extra.env,
    },
  };
}

/** The `type`s of events, for order checks. */
export function typesOf(events: ReadonlyArray<{ type: string }>, ignore: string[] = ['message_update', 'tool_update']): string[] {
  return events.map((e) => e.type).filter((t) => !ignore.includes(t));
}

export interface StubAndAgent {
  /** This test's stub model server. */
  readonly stub: OpenAIStub;
  /** The agent this test (or a beforeEach) made last with `create`. */
  readonly agent: Agent;
  /** Agent.create; the agent is closed after the test. */
  create(options: AgentOptions): Promise<Agent>;
  /** Closes (stops) an agent or client made another way after the test; returns it. */
  closeAfter<T extends Agent | RuntimeClient>(closable: T): T;
}

/**
 * Mocha hooks for a suite that drives the real runtime through the SDK against a fresh stub model server: sets the
 * suite timeout, builds the runtime when stale, gives each test its own stub, and closes every agent and client
 * registered through `create`/`closeAfter` after the test. Call it first in the `describe` callback, with its `this`.
 */
export function useStubAndAgent(suite: Mocha.Suite, timeoutMs = 60_000): StubAndAgent {
  suite.timeout(timeoutMs);
  let stub: OpenAIStub | undefined;
  const started: Array<Agent | RuntimeClient> = [];
  before(() => ensureRuntimeBuilt());
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((c) => (c instanceof Agent ? c.close() : c.stop())));
    await stub?.close();
    stub = undefined;
  });
  const closeAfter = <T extends Agent | RuntimeClient>(closable: T): T => {
    started.push(closable);
    return closable;
  };
  return {
    get stub() {
      if (!stub) throw new Error('the stub exists only inside a test');
      return stub;
    },
    get agent() {
      const agent = started.filter((c): c is Agent => c instanceof Agent).at(-1);
      if (!agent) throw new Error('no agent made in this test yet');
      return agent;
    },
    create: async (options) => closeAfter(await Agent.create(options)),
    closeAfter,
  };
}
