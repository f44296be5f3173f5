import * as fs from 'node:fs';
import * as path from 'node:path';

function realDirectory(dir: string): string {
  const resolved = path.resolve(dir);
  try {
    return fs.realpathSync.native(resolved);
  } catch {
    return resolved;
  }
}

/**
 * Folders outside the workspace the agent may use: the configured ones (`additionalDirectories`, the agent's own output
 * folder) plus the ones the user granted for the session.
 */
export class DirectoryGrants {
  private configured = new Set<string>();
  private readonly session = new Set<string>();

  constructor(dirs: string[]) {
    this.setConfigured(dirs);
  }

  /** `realPath` must already have its symlinks resolved; it is granted when it is in (or is) a granted folder. */
  isGranted(realPath: string): boolean {
    const target = path.resolve(realPath);
    for (const dir of this.list()) {
      if (target === dir || target.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep)) return true;
    }
    return false;
  }

  grantSession(dir: string): void {
    this.session.add(realDirectory(dir));
  }

  /** Takes back a folder granted for the session (one granted for a single operation, such as generateSkill's). */
  revokeSession(dir: string): void {
    this.session.delete(realDirectory(dir));
  }

  /** Replaces the configured folders (new settings); folders granted for the session stay granted. */
  setConfigured(dirs: string[]): void {
    this.configured = new Set(dirs.map(realDirectory));
  }

  list(): string[] {
    return [...new Set([...this.configured, ...this.session])];
  }
}
