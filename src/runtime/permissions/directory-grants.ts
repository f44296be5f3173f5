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

/** Folders outside the workspace the agent may use (config `additionalDirectories` plus session grants). */
export class DirectoryGrants {
  private readonly dirs = new Set<string>();

  constructor(dirs: string[]) {
    for (const dir of dirs) this.dirs.add(realDirectory(dir));
  }

  /** `realPath` must already have its symlinks resolved; it is granted when it is in (or is) a granted folder. */
  isGranted(realPath: string): boolean {
    const target = path.resolve(realPath);
    for (const dir of this.dirs) {
      if (target === dir || target.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep)) return true;
    }
    return false;
  }

  grantSession(dir: string): void {
    this.dirs.add(realDirectory(dir));
  }

  list(): string[] {
    return [...this.dirs];
  }
}
