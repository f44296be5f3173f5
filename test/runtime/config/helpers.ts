import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../helpers/temp-dir';

export interface TempLayout {
  root: string;
  home: string;
  cwd: string;
  userFile: string;
  projectFile: string;
  cleanup(): void;
}

/** A throwaway home folder and project folder under the system temp dir. */
export function tempLayout(): TempLayout {
  const root = makeTempDir('agentcli-config-');
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'project');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(cwd, { recursive: true });
  return {
    root,
    home,
    cwd,
    userFile: path.join(home, '.agentcli', 'config.json'),
    projectFile: path.join(cwd, '.agentcli', 'config.json'),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export function writeText(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

export function writeJson(file: string, data: unknown): void {
  writeText(file, JSON.stringify(data, null, 2));
}

export function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
