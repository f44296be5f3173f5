/**
 * A test that needs something from the machine (a browser, tmux, ripgrep, a build) calls `requirePrerequisite` with
 * the reason it is missing. Outside CI the test is skipped with that reason printed; under `CI=true` a missing
 * prerequisite fails the run instead, because scripts/test-all.sh installs everything the tests need before they run.
 */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(?:1|true|yes)$/i.test(env.CI ?? '');
}

export function requirePrerequisite(ctx: Mocha.Context, missing: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (missing === undefined) return;
  if (isCi(env)) throw new Error(`missing test prerequisite under CI=true: ${missing} (scripts/test-all.sh installs it)`);
  console.log(`    skipped: ${missing}`);
  ctx.skip();
}
