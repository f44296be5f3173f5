/** highlight.js core with only the languages a coding chat needs, to keep the bundle small. */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';

let registered = false;

/** The languages are registered on the first highlight: each definition builds its rules as it is registered. */
function registerLanguages(): void {
  if (registered) return;
  registered = true;
  hljs.registerLanguage('typescript', typescript);
  hljs.registerLanguage('javascript', javascript);
  hljs.registerLanguage('json', json);
  hljs.registerLanguage('bash', bash);
  hljs.registerLanguage('python', python);
  hljs.registerLanguage('diff', diff);
  hljs.registerLanguage('css', css);
  hljs.registerLanguage('xml', xml);
  hljs.registerLanguage('markdown', markdown);
  hljs.registerAliases(['ts', 'tsx', 'mts', 'cts'], { languageName: 'typescript' });
  hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
  hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
  hljs.registerAliases(['py'], { languageName: 'python' });
  hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
  hljs.registerAliases(['md'], { languageName: 'markdown' });
  hljs.registerAliases(['patch'], { languageName: 'diff' });
  hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
}

/**
 * Highlighted HTML for `code`, or undefined for an unknown or missing language (shown as plain text).
 * highlight.js escapes the source text; the caller still sanitizes the result before it reaches the DOM.
 */
export function highlightToHtml(code: string, language: string | undefined): string | undefined {
  if (language === undefined) return undefined;
  registerLanguages();
  if (hljs.getLanguage(language) === undefined) return undefined;
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
}
