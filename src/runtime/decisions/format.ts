/** Human-readable output of a decision: the answer, then every possible answer with its probability, most likely first. */
import type { DecisionResult } from '../../protocol';

function percent(p: number): string {
  return `${(p * 100).toFixed(1).padStart(5)}%`;
}

export function formatDecision(result: DecisionResult): string {
  const entries = Object.entries(result.probabilities as Record<string, number>).sort((a, b) => b[1] - a[1]);
  const width = Math.max(...entries.map(([k]) => k.length), 6);
  const lines = [`answer: ${String(result.answer)}`, 'probabilities:'];
  for (const [key, p] of entries) {
    const bar = '█'.repeat(Math.round(p * 20));
    lines.push(`  ${key.padEnd(width)}  ${percent(p)}  ${bar}`);
  }
  return lines.join('\n');
}
