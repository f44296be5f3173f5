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
  if (ms < 60000) return `${Math.ceil(ms / 1000)}s left`;
  const min = Math.ceil(ms / 60000);
  return min >= 60 ? `${Math.floor(min / 60)}h ${String(min % 60).padStart(2, '0')}m left` : `${min}m left`;
}

/** How often the countdown is redrawn: every second in the last minute, else every 15 s. */
export function tickMs(expiresAt: string | undefined, now = Date.now()): number {
  if (!expiresAt) return 15000;
  const ms = Date.parse(expiresAt) - now;
  return Number.isFinite(ms) && ms <= 61000 ? 1000 : 15000;
}

/** The notification when a timed yolo ran out: "Yolo mode ended after 30 minutes." (the length when known). */
export function yoloEndedText(minutes: number | undefined): string {
  if (minutes === undefined) return 'Yolo mode ended: its time ran out. Tools ask before running again.';
  if (minutes < 1) {
    const seconds = Math.max(1, Math.round(minutes * 60));
    return `Yolo mode ended after ${seconds} second${seconds === 1 ? '' : 's'}. Tools ask before running again.`;
  }
  const n = Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(1);
  return `Yolo mode ended after ${n} minute${minutes === 1 ? '' : 's'}. Tools ask before running again.`;
}
