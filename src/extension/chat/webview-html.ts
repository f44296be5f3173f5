/**
 * The chat webview's HTML: a strict Content-Security-Policy with a per-load nonce, and the page's own code and styles
 * carried inside it, so the panel fetches nothing before it can start. (Fetched, each file is a round trip through
 * the webview's service worker and, remotely, the server: about half a second after a window reload.) Pure: no
 * `vscode` import.
 *
 * The bundle travels as a JSON data block, every `<` written `\u003c`, so no text in it can end the element or put
 * the HTML parser in another state; a small nonce'd script hands it to the page as a script of its own. Styles go in
 * a nonce'd `<style>` (a relative `url()` in them would not resolve: they use none).
 */
import { randomBytes } from 'node:crypto';

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

/** Runs the bundle from its data block: a blob URL loaded by a script element with the page's nonce. */
function bootstrap(nonce: string): string {
  return [
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
    <div id="app"></div>
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
