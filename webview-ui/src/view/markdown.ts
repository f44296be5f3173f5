/**
 * Markdown from the model → a sanitized DOM fragment. Everything the runtime sends is untrusted: marked renders,
 * DOMPurify strips scripts, handlers, styles, forms, images and non-allowlisted URLs before anything reaches the DOM.
 * Links become inert: a click on a workspace path asks the extension to open it; other links do nothing.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { highlightToHtml } from './highlight';

const marked = new Marked({ gfm: true, breaks: false, async: false });

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'strong', 'em', 'b', 'i', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'input',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'align', 'start', 'type', 'checked', 'disabled'];

type Purifier = ReturnType<typeof DOMPurify>;
let purifier: Purifier | undefined;

/** The DOMPurify instance bound to the current window (tests can run this under a DOM implementation). */
function getPurifier(): Purifier {
  if (purifier === undefined) {
    purifier = DOMPurify(window);
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
  return getPurifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|file:|#|\.{0,2}\/|[\w.-]+(?:\/|$|#|\.))/i,
    RETURN_DOM_FRAGMENT: true,
  });
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
    const highlighted = highlightToHtml(source, language);
    if (highlighted !== undefined) {
      code.replaceChildren(sanitizeHtml(highlighted));
      code.classList.add('hljs');
    }
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

/** Render untrusted markdown into a safe fragment with highlighted, copyable code blocks and inert links. */
export function renderMarkdown(text: string, hooks: MarkdownHooks): DocumentFragment {
  const html = marked.parse(text) as string;
  const fragment = sanitizeHtml(html);
  enhanceCodeBlocks(fragment, hooks);
  enhanceLinks(fragment, hooks);
  return fragment;
}
