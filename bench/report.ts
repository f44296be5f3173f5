// How the bench prints: one aligned row per figure, and a verdict against a target relative to a floor.

export const fmt = (n: number, unit = 'ms') => `${n.toFixed(n < 10 ? 2 : 0)} ${unit}`;

export function row(what: string, value: string, target = ''): void {
  console.log(`${what.padEnd(52)} ${value.padEnd(22)} ${target}`);
}

/** `target ≤ <limit> (<factor>× <floor name>): met|MISSED (<ratio>×)` */
export function verdict(value: number, floor: number, factor: number, floorName: string, unit = 'ms'): string {
  const ratio = value / floor;
  return `target ≤ ${fmt(floor * factor, unit)} (${factor}× ${floorName}): ${value <= floor * factor ? 'met' : 'MISSED'} (${ratio.toFixed(2)}×)`;
}

/** Whether a part of the bench should run: all by default, or those named in BENCH_ONLY (comma-separated). */
export function selected(part: string): boolean {
  const only = process.env.BENCH_ONLY;
  return !only || only.split(',').map((s) => s.trim()).includes(part);
}
