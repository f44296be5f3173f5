/** What every `agentcli` command reads and writes: its directory, home, environment and output streams. */
export interface CliIo {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}
