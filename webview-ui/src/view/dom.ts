/** Small DOM helpers. Strings always become text nodes: nothing here parses HTML. */

export type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  testid?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string>;
  on?: { [K in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class !== undefined) el.className = props.class;
  if (props.testid !== undefined) el.dataset.testid = props.testid;
  if (props.title !== undefined) el.title = props.title;
  if (props.text !== undefined) el.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) el.setAttribute(name, value);
  for (const [name, handler] of Object.entries(props.on ?? {})) el.addEventListener(name, handler as EventListener);
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

export function button(label: string, testid: string, onClick: () => void, options: { class?: string; title?: string; disabled?: boolean } = {}): HTMLButtonElement {
  const b = h('button', { class: options.class ?? 'btn', testid, title: options.title, text: label, attrs: { type: 'button' } });
  b.disabled = options.disabled ?? false;
  b.addEventListener('click', (ev) => {
    ev.stopPropagation();
    onClick();
  });
  return b;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}
