/**
 * Temp folders for tests, tracked so they are removed when the test run ends (the root hook in mocha-setup.ts), so
 * runs do not leave thousands of folders in the system temp folder. Give each a prefix that says which test made it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder made so far (best effort: a folder a still-running process holds may stay). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
}
