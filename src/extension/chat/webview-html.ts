/**
 * The chat webview's HTML: a strict Content-Security-Policy with a per-load nonce, and the page's own code and styles
 * carried inside it, so the panel fetches nothing before it can start. (Fetched, each file is a round trip through
 * the webview's service worker and, remotely, the server: about half a second after a window reload.) Pure: no
 * `vscode` import.
 *
 * The bundle travels as a JSON data block, every `<` written `\u003c`, so no text in it can end the element or put
 * the HTML parser in another state; a small nonce'd script hands it to the page as a script of its own. Styles go in
 * a nonce'd `<style>` (a relative `url()` in them would not resolve: they use none).
 *
 * The page also carries the prompt box itself, where the panel will have it, so it is on screen and takes typing while
 * the bundle loads (about half a second after a window reload). The composer adopts that box, with what was typed in
 * it; an Enter pressed before then is held back and sent once the panel has started.
 */
import { EARLY_SEND_ATTR, SEND_BUTTON, PROMPT_BOX_ATTRS, PROMPT_BOX_CLASS, PROMPT_BOX_SELECTOR, PROMPT_BOX_TESTID, type EarlySendState } from '../../shared/chat/promptBox';

export interface WebviewHtmlInput {
  /** `webview.cspSource`: the origin local resources are served from. */
  cspSource: string;
  /** The text of dist/webview/webview.js. */
  script: string;
  /** The text of the style sheets, in order (dist/webview/webview.css when the bundle emits one, media/webview/*.css). */
  styles: string[];
  nonce?: string;
}

/** The id of the data block that holds the bundle. */
export const BUNDLE_ELEMENT_ID = 'agentcli-bundle';

export function makeNonce(): string {
  // node:crypto loads with the first page, not at activation (a command can activate the extension without one)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  return randomBytes(18).toString('base64').replace(/[+/=]/g, '');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A script's text as a JSON string literal with no `<` in it: safe as the content of any raw-text element. */
export function scriptData(script: string): string {
  return JSON.stringify(script).replace(/</g, '\\u003c');
}

/** The carried prompt box, at the bottom of an empty panel as the composer will show it. */
function promptBoxShell(): string {
  const attrs = Object.entries({ ...PROMPT_BOX_ATTRS, class: PROMPT_BOX_CLASS, 'data-testid': PROMPT_BOX_TESTID, [EARLY_SEND_ATTR]: 'waiting' satisfies EarlySendState })
    .map(([name, value]) => `${name}="${escapeAttr(value)}"`)
    .join(' ');
  const send = `<button type="button" class="${SEND_BUTTON.class}" data-testid="${SEND_BUTTON.testid}" title="${escapeAttr(SEND_BUTTON.title)}">${SEND_BUTTON.label}</button>`;
  return `<div class="app"><div class="transcript"></div><div class="composer"><div class="composer-row"><textarea ${attrs}></textarea><div class="composer-buttons">${send}</div></div></div></div>`;
}

/**
 * Holds back an Enter pressed in the carried box (or a click on the carried Send) before the composer adopts the box
 * (which removes the attribute), marking it `send`; marks the first frame that shows the box; then runs the bundle
 * from its data block: a blob URL loaded by a script element with the page's nonce (so it runs in a later task, after
 * that frame).
 */
function bootstrap(nonce: string): string {
  return [
    `const box = document.querySelector('${PROMPT_BOX_SELECTOR}');`,
    // true when held back (the composer has not adopted the box yet)
    `const early = () => box.getAttribute('${EARLY_SEND_ATTR}') !== null && (box.setAttribute('${EARLY_SEND_ATTR}', '${'send' satisfies EarlySendState}'), true);`,
    `box.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && early()) e.preventDefault(); });`,
    `document.querySelector('.composer-buttons button').addEventListener('click', early);`,
    `requestAnimationFrame(() => performance.mark('agentcli:input-ready'));`,
    `const text = JSON.parse(document.getElementById('${BUNDLE_ELEMENT_ID}').textContent);`,
    `const script = document.createElement('script');`,
    `script.nonce = '${nonce}';`,
    `script.src = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));`,
    `document.body.appendChild(script);`,
  ].join(' ');
}

export function webviewHtml(input: WebviewHtmlInput): string {
  const nonce = input.nonce ?? makeNonce();
  // `</style` is the only text that ends a style element; `\/` is a CSS escape of `/`.
  const styles = input.styles.map((css) => `<style nonce="${nonce}">${css.replace(/<\/style/gi, '<\\/style')}</style>`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(input.cspSource, nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>agentcli</title>
  </head>
  <body>
    ${promptBoxShell()}
    <script type="application/json" id="${BUNDLE_ELEMENT_ID}">${scriptData(input.script)}</script>
    <script nonce="${nonce}">(() => { ${bootstrap(nonce)} })();</script>
  </body>
</html>`;
}

/** What the panel shows when its own files cannot be read (a broken install): what is missing and what fixes it. */
export function missingFilesHtml(file: string): string {
  const csp = "default-src 'none'";
  return `<!DOCTYPE html>
<html lang="en">
  <head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><title>agentcli</title></head>
  <body><p>The chat panel cannot start: its file ${escapeAttr(file)} is missing from the agentcli extension. Reinstall the extension (Extensions view → agentcli → Uninstall, then Install), then reload the window.</p></body>
</html>`;
}
