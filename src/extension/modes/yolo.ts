/** Pure helpers of the yolo command: input validation and the remaining-time label. No `vscode` import. */

/** Parses the yolo minutes typed by the user: a positive number, at most one week. */
export function parseYoloMinutes(text: string): { minutes: number } | { error: string } {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) return { error: 'Type a number of minutes, e.g. 30' };
  if (value <= 0) return { error: 'The timeout must be positive: type a number of minutes greater than 0' };
  if (value > 7 * 24 * 60) return { error: 'At most one week (10080 minutes)' };
  return { minutes: value };
}

/** "12m left" / "1h 05m left" for the status bar. */
export function remainingText(expiresAt: string | undefined, now = Date.now()): string {
  if (!expiresAt) return '';
  const ms = Date.parse(expiresAt) - now;
  if (!Number.isFinite(ms)) return '';
  if (ms <= 0) return 'ending';
  const min = Math.ceil(ms / 60000);
  return min >= 60 ? `${Math.floor(min / 60)}h ${String(min % 60).padStart(2, '0')}m left` : `${min}m left`;
}
