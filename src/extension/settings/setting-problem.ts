/** A setting whose value cannot be used, with the message the user sees (it names the setting). */
export interface SettingProblem {
  /** Full setting id, e.g. `agentcli.localrunner.temperature`. */
  setting: string;
  message: string;
}
