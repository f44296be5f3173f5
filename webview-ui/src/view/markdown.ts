/**
 * Markdown from the model → a sanitized DOM fragment. Everything the runtime sends is untrusted: marked renders,
 * DOMPurify strips scripts, handlers, styles, forms, images and non-allowlisted URLs before anything reaches the DOM.
 * Links become inert: a click on a workspace path asks the extension to open it; other links do nothing.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { highlightToHtml } from './highlight';

const LANGUAGE = /^[\w+#.-]+$/;
const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Code blocks are highlighted while the markdown is rendered, so the whole answer goes through DOMPurify once (not
 * once more per block). highlight.js escapes the source; the result is sanitized with the rest.
 */
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    code({ text, lang }) {
      const language = lang?.trim().split(/\s+/)[0]?.toLowerCase();
      if (language === undefined || !LANGUAGE.test(language)) return false;
      const body = highlightToHtml(text.replace(/\n$/, '') + '\n', language);
      return `<pre><code class="language-${escapeHtml(language)}${body === undefined ? '' : ' hljs'}">${body ?? escapeHtml(text.replace(/\n$/, '') + '\n')}</code></pre>\n`;
    },
  },
});

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'strong', 'em', 'b', 'i', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'input',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'align', 'start', 'type', 'checked', 'disabled'];

type Purifier = ReturnType<typeof DOMPurify>;
let purifier: Purifier | undefined;

/**
 * The DOMPurify instance bound to the current window (tests can run this under a DOM implementation), configured once
 * (parsing the configuration on every call cost more than sanitizing a short answer).
 */
function getPurifier(): Purifier {
  if (purifier === undefined) {
    purifier = DOMPurify(window);
    purifier.setConfig({
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOW_DATA_ATTR: false,
      ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|file:|#|\.{0,2}\/|[\w.-]+(?:\/|$|#|\.))/i,
      RETURN_DOM_FRAGMENT: true,
    });
    purifier.addHook('uponSanitizeAttribute', (node, data) => {
      // Task-list checkboxes are the only inputs allowed, and only as disabled checkboxes.
      if (node.nodeName === 'INPUT' && data.attrName === 'type' && data.attrValue !== 'checkbox') data.keepAttr = false;
      if (data.attrName === 'class' && !/^(language-[\w+#.-]+|hljs[\w-]*|task-list-item[\w-]*)( [\w-]+)*$/.test(data.attrValue)) data.keepAttr = false;
    });
    purifier.addHook('afterSanitizeElements', (node) => {
      if (node.nodeName === 'INPUT' && (node as Element).getAttribute('type') !== 'checkbox') (node as Element).remove();
    });
  }
  return purifier;
}

export function sanitizeHtml(html: string): DocumentFragment {
  return getPurifier().sanitize(html) as unknown as DocumentFragment;
}

export interface MarkdownHooks {
  /** A link to a workspace path was clicked (path without the `#L12` fragment, line 1-based). */
  openFile(path: string, line: number | undefined): void;
  copy(text: string): void;
}

/** A link target the extension may open: a relative or absolute file path or a file: URL, never a web address. */
export function fileLinkTarget(href: string): { path: string; line: number | undefined } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !/^file:/i.test(href)) return undefined;
  if (href.startsWith('#') || href === '') return undefined;
  let raw = href.replace(/^file:\/\//i, '');
  let line: number | undefined;
  const m = /#L(\d+)(?:-L?\d+)?$/.exec(raw);
  if (m?.[1] !== undefined) {
    line = Number(m[1]) || undefined;
    raw = raw.slice(0, m.index);
  }
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // keep the raw text
  }
  return raw === '' ? undefined : { path: raw, line };
}

function enhanceLinks(root: DocumentFragment, hooks: MarkdownHooks): void {
  for (const a of Array.from(root.querySelectorAll('a'))) {
    const href = a.getAttribute('href') ?? '';
    a.removeAttribute('href');
    const target = fileLinkTarget(href);
    if (target === undefined) {
      a.classList.add('inert-link');
      if (href !== '') a.title = href;
      continue;
    }
    a.classList.add('file-link');
    a.title = `Open ${target.path}${target.line !== undefined ? `:${target.line}` : ''}`;
    a.tabIndex = 0;
    a.setAttribute('role', 'link');
    const open = (ev: Event) => {
      ev.preventDefault();
      hooks.openFile(target.path, target.line);
    };
    a.addEventListener('click', open);
    a.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') open(ev);
    });
  }
}

function enhanceCodeBlocks(root: DocumentFragment, hooks: MarkdownHooks): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    if (code === null) continue;
    const source = code.textContent ?? '';
    const language = /language-([\w+#.-]+)/.exec(code.className)?.[1]?.toLowerCase();
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'code-copy';
    copy.dataset.testid = 'code-copy';
    copy.textContent = 'Copy';
    copy.title = 'Copy code';
    copy.addEventListener('click', () => {
      hooks.copy(source);
      copy.textContent = 'Copied';
      setTimeout(() => (copy.textContent = 'Copy'), 1200);
    });
    const wrapper = document.createElement('div');
    wrapper.className = 'code-block';
    if (language !== undefined) {
      const label = document.createElement('span');
      label.className = 'code-lang';
      label.textContent = language;
      wrapper.appendChild(label);
    }
    pre.replaceWith(wrapper);
    wrapper.append(copy, pre);
  }
}

function safeFragment(html: string, hooks: MarkdownHooks): DocumentFragment {
  const fragment = sanitizeHtml(html);
  enhanceCodeBlocks(fragment, hooks);
  enhanceLinks(fragment, hooks);
  return fragment;
}

/** Render untrusted markdown into a safe fragment with highlighted, copyable code blocks and inert links. */
export function renderMarkdown(text: string, hooks: MarkdownHooks): DocumentFragment {
  return safeFragment(marked.parse(text) as string, hooks);
}

/**
 * A streamed answer: the blocks that later text can no longer change (all but the last one) keep their DOM; each
 * update renders only the text after them, so a delta costs the size of the last block, not of the whole answer.
 * Reference-style link definitions in an earlier block are not seen by later ones until the final full render.
 */
export class StreamingMarkdown {
  /** The text already rendered as final blocks (a prefix of every later text). */
  private stable = '';
  /** The nodes of the last, still growing block(s). */
  private tail: ChildNode[] = [];

  constructor(readonly root: HTMLElement, private readonly hooks: MarkdownHooks) {}

  update(text: string): void {
    if (!text.startsWith(this.stable)) {
      this.stable = '';
      this.tail = [];
      this.root.replaceChildren();
    }
    const rest = text.slice(this.stable.length);
    const tokens = marked.lexer(rest);
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]?.type === 'space') last--;
    const done = tokens.slice(0, Math.max(0, last));
    const doneRaw = done.map((t) => t.raw).join('');
    let pending = rest;
    if (done.length > 0 && rest.startsWith(doneRaw)) {
      const fragment = safeFragment(marked.parser(done), this.hooks);
      this.root.insertBefore(fragment, this.tail[0] ?? null);
      this.stable += doneRaw;
      pending = rest.slice(doneRaw.length);
    }
    const fragment = safeFragment(marked.parse(pending) as string, this.hooks);
    const nodes = Array.from(fragment.childNodes);
    for (const n of this.tail) n.remove();
    this.root.appendChild(fragment);
    this.tail = nodes;
  }
}
