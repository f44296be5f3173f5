/**
 * The chat webview's HTML shell: a strict Content-Security-Policy with a per-load nonce, only local resources
 * (the webview bundle in dist/webview/, styles there or in media/webview/), no remote content. Pure: no `vscode` import.
 */
import { randomBytes } from 'node:crypto';

export interface WebviewHtmlInput {
  /** `webview.cspSource`: the origin local resources are served from. */
  cspSource: string;
  /** Webview URI of dist/webview/webview.js. */
  scriptUri: string;
  /** Webview URIs of style sheets (dist/webview/webview.css when the bundle emits one, media/webview/*.css). */
  styleUris: string[];
  nonce?: string;
}

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

export function webviewHtml(input: WebviewHtmlInput): string {
  const nonce = input.nonce ?? makeNonce();
  const styles = input.styleUris.map((u) => `<link rel="stylesheet" href="${escapeAttr(u)}" nonce="${nonce}">`).join('\n    ');
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
    <div id="app" data-nonce="${nonce}"></div>
    <script nonce="${nonce}" src="${escapeAttr(input.scriptUri)}"></script>
  </body>
</html>`;
}
