import * as path from 'node:path';

export const CONFIG_DIR_NAME = '.agentcli';
export const CONFIG_FILE_NAME = 'config.json';

/** `~/.agentcli/config.json` */
export function userConfigPath(home: string): string {
  return path.join(home, CONFIG_DIR_NAME, CONFIG_FILE_NAME);
}

/** `<project>/.agentcli/config.json` */
export function projectConfigPath(cwd: string): string {
  return path.join(cwd, CONFIG_DIR_NAME, CONFIG_FILE_NAME);
}
