/**
 * Contrast of the chat panel as rendered: for each checked element, the WCAG contrast ratio of its text color
 * against the background it is actually painted on (ancestor backgrounds composited, alpha and opacity applied),
 * and in high-contrast themes the ratio of card and control borders against the surface around them.
 */
import type { Locator } from 'playwright-core';

export interface ContrastCheck {
  /** What the element is, for the report. */
  name: string;
  selector: string;
  /** Minimum ratio: 4.5 for text (WCAG AA), 3 for borders of controls (non-text contrast). */
  min: number;
  /** Check the border color against the surroundings instead of the text against the background. */
  border?: boolean;
  /** The scene may not show this element; when it does, it is checked. */
  optional?: boolean;
}

export interface ContrastResult {
  name: string;
  /** Elements found (visible, not disabled). */
  count: number;
  /** Lowest ratio among them, and the colors that gave it. */
  ratio?: number;
  fg?: string;
  bg?: string;
}

/** Text checked in every theme. */
export const TEXT_CHECKS: ContrastCheck[] = [
  { name: 'user message', selector: '.msg.user .user-text', min: 4.5 },
  { name: 'assistant text', selector: '.msg.assistant .markdown p', min: 4.5 },
  { name: 'inline code', selector: '.markdown :not(pre) > code', min: 4.5 },
  { name: 'code block text', selector: '.code-block pre code, .code-block pre code span', min: 4.5 },
  { name: 'tool name', selector: '.tool-name', min: 4.5 },
  { name: 'tool arguments', selector: '.tool-args', min: 4.5 },
  { name: 'tool duration', selector: '.tool-duration', min: 4.5 },
  { name: 'tool status', selector: '.tool-status', min: 3 },
  { name: 'card title', selector: '.card-title', min: 4.5 },
  { name: 'count badge', selector: '.card-title .badge', min: 4.5 },
  // shown only when it says more than the command; this scene's command card has none
  { name: 'permission description', selector: '.card-description', min: 4.5, optional: true },
  { name: 'tool decision on a card', selector: '.tool-decision', min: 4.5, optional: true },
  { name: 'permission command', selector: '.request-command', min: 4.5 },
  { name: 'rule hint', selector: '.request-rules', min: 4.5 },
  { name: 'primary button', selector: '.btn.primary', min: 4.5 },
  { name: 'secondary button', selector: '.btn.secondary', min: 4.5 },
  { name: 'batch file link', selector: '.batch-file .file-link', min: 4.5 },
  { name: 'batch kind badge', selector: '.kind-badge', min: 4.5 },
  { name: 'batch +/- counts', selector: '.counts span', min: 4.5 },
  { name: 'header model link', selector: '.header .link-button', min: 4.5 },
  { name: 'prompt box', selector: '.prompt-input', min: 4.5 },
];

/** Boundaries that must be visible in high-contrast themes (VS Code draws contrastBorder around such surfaces). */
export const HC_BORDER_CHECKS: ContrastCheck[] = [
  { name: 'user message border', selector: '.msg.user', min: 3, border: true },
  { name: 'tool card border', selector: '.tool-card', min: 3, border: true },
  { name: 'code block border', selector: '.code-block', min: 3, border: true },
  { name: 'permission/batch card border', selector: '.card', min: 3, border: true },
  { name: 'button border', selector: '.btn:not(:disabled)', min: 3, border: true },
  { name: 'prompt box border', selector: '.prompt-input', min: 3, border: true },
];

/**
 * Runs in the webview (a string, so the TypeScript loader adds no helpers to it). Colors come from
 * getComputedStyle as rgb()/rgba(); anything else is reported as unparsable.
 */
const MEASURE = `(root, checks) => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3] + under[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const ch = (i) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a;
    return [ch(0), ch(1), ch(2), a];
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  // the background painted behind el (from el itself, or from its parent for 'outside')
  const backgroundOf = (el) => {
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.push(e);
    let bg = [255, 255, 255, 1];
    const base = parse(getComputedStyle(document.documentElement).backgroundColor);
    if (base && base[3] > 0) bg = over(base, bg);
    for (const e of chain.reverse()) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) bg = over(c, bg);
    }
    return bg;
  };
  const opacityOf = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
  const hex = (c) => '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  return checks.map((check) => {
    const els = [...root.querySelectorAll(check.selector)].filter((e) => e.getClientRects().length > 0 && !e.disabled &&
      (check.border || e.matches('textarea, input') || (e.textContent || '').trim() !== ''));
    let worst;
    for (const el of els) {
      const s = getComputedStyle(el);
      let fg, bg;
      if (check.border) {
        if (parseFloat(s.borderTopWidth) === 0 || s.borderTopStyle === 'none') { fg = [0, 0, 0, 0]; }
        else fg = parse(s.borderTopColor);
        bg = el.parentElement ? backgroundOf(el.parentElement) : [255, 255, 255, 1];
      } else {
        fg = parse(s.color);
        bg = backgroundOf(el);
      }
      if (!fg) continue;
      const painted = over([fg[0], fg[1], fg[2], fg[3] * opacityOf(el)], bg);
      const r = ratio(painted, bg);
      if (!worst || r < worst.ratio) worst = { ratio: Math.round(r * 100) / 100, fg: hex(painted), bg: hex(bg) };
    }
    return { name: check.name, count: els.length, ...(worst || {}) };
  });
}`;

/** Measures every check inside the element `root` (e.g. the chat webview's body). */
export async function measureContrast(root: Locator, checks: ContrastCheck[]): Promise<ContrastResult[]> {
  // a function made from the source text: Playwright sends its text and calls it with (element, checks)
  const measure = new Function(`return ${MEASURE}`)() as (root: Element, checks: ContrastCheck[]) => ContrastResult[];
  return root.evaluate(measure, checks);
}

/** The failures among the results, as readable lines (an element kind that is missing counts as a failure). */
export function contrastFailures(checks: ContrastCheck[], results: ContrastResult[]): string[] {
  const out: string[] = [];
  for (const check of checks) {
    const r = results.find((x) => x.name === check.name);
    if (!r || r.count === 0) {
      if (!check.optional) out.push(`${check.name}: no visible element matches ${check.selector}`);
    } else if (r.ratio === undefined) out.push(`${check.name}: colors could not be read`);
    else if (r.ratio < check.min) out.push(`${check.name}: ${r.ratio}:1 (${r.fg} on ${r.bg}), needs ${check.min}:1`);
  }
  return out;
}
