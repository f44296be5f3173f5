/**
 * The sandbox-exec (Seatbelt) profile for a command on macOS: everything is readable, writes are denied except in the
 * writable folders and the temp folders, git hooks and config and the project's agentcli config stay read-only, and
 * the network is denied unless allowed. macOS has no process namespace: a command there can still see the runtime's
 * process (and, as the same user, its environment), which the Linux sandbox prevents.
 *
 * Only the text is tested (the test machines run Linux); the profile follows the SBPL syntax sandbox-exec accepts.
 */

export interface SeatbeltPlan {
  writable: readonly string[];
  tmpPaths: readonly string[];
  readOnly: readonly string[];
  /** Files whose contents are hidden (the user's config file with stored keys). */
  hidden: readonly string[];
  network: boolean;
  /** `read-only`: no writes at all except the temp folders. */
  readOnlyMode: boolean;
}

/** An SBPL string literal. */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(plan: SeatbeltPlan): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  const writable = [...(plan.readOnlyMode ? [] : plan.writable), ...plan.tmpPaths];
  const allowed = [...writable.map((p) => `(subpath ${sbplString(p)})`), '(literal "/dev/null")', '(literal "/dev/tty")', '(regex #"^/dev/fd/")'];
  lines.push(`(allow file-write*\n  ${allowed.join('\n  ')})`);
  if (plan.readOnly.length > 0) lines.push(`(deny file-write*\n  ${plan.readOnly.map((p) => `(subpath ${sbplString(p)})`).join('\n  ')})`);
  if (plan.hidden.length > 0) lines.push(`(deny file-read*\n  ${plan.hidden.map((p) => `(literal ${sbplString(p)})`).join('\n  ')})`);
  if (!plan.network) lines.push('(deny network*)');
  return `${lines.join('\n')}\n`;
}
