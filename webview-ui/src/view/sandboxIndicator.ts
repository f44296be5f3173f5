/** The header's shield: how run_command is isolated (getState().sandbox), quiet when sandboxed, a warning when not. */
import type { SandboxState } from '../../../src/protocol/records';
import { h } from './dom';

/** The tooltip and level of the shield; pure, so it is tested without a DOM. */
export function sandboxText(s: SandboxState): { title: string; level: 'ok' | 'warn' } {
  if (s.mode === 'off') {
    return {
      title: 'Commands run without a sandbox: they can change any file your account can and use the network. Set sandbox.mode to "workspace-write" in the agentcli config to isolate them.',
      level: 'warn',
    };
  }
  if (!s.available) {
    return { title: `The sandbox cannot start, so commands are refused or asked about: ${s.reason ?? 'no reason given'}`, level: 'warn' };
  }
  const files = s.mode === 'workspace-write' ? 'workspace writable' : 'read-only';
  const network = s.network ? 'network allowed' : 'no network';
  return { title: `Commands run in a sandbox (${files}, ${network})`, level: 'ok' };
}

/** A shield outline, with an exclamation mark for the warning (an SVG built node by node, no markup parsed). */
function shieldIcon(warn: boolean): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  const paths = ['M8 1.5l5 2v4c0 3.2-2.1 5.6-5 7-2.9-1.4-5-3.8-5-7v-4z', ...(warn ? ['M8 4.8v4', 'M8 11v.4'] : ['M5.8 8l1.6 1.6 2.9-3'])];
  for (const d of paths) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke', 'currentColor');
    path.setAttribute('stroke-width', '1.4');
    path.setAttribute('stroke-linecap', 'round');
    path.setAttribute('stroke-linejoin', 'round');
    svg.appendChild(path);
  }
  return svg;
}

export class SandboxIndicator {
  readonly root = h('span', { class: 'sandbox-indicator', testid: 'sandbox-indicator', attrs: { role: 'img' } });

  constructor() {
    this.root.hidden = true;
  }

  set(sandbox: SandboxState | undefined): void {
    this.root.hidden = sandbox === undefined;
    if (sandbox === undefined) return;
    const { title, level } = sandboxText(sandbox);
    this.root.title = title;
    this.root.setAttribute('aria-label', title);
    this.root.dataset.level = level;
    this.root.replaceChildren(shieldIcon(level === 'warn'));
  }
}
