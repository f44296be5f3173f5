import { removeTempDirs } from './temp-dir';

// Runtimes started by tests (also through the SDK, which passes its environment on) check every event they send
// against the protocol and stop on one it does not allow (src/runtime/rpc/event-check.ts).
process.env.AGENTCLI_VALIDATE_EVENTS = '1';

/** Root hooks (mocha loads them from this required file): the temp folders of the whole run go when it ends. */
export const mochaHooks = {
  afterAll(): void {
    removeTempDirs();
  },
};
