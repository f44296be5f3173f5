/**
 * The files the chat webview is made of: its bundle directory (dist/webview/: webview.js and, when the bundle emits
 * one, webview.css) and media/webview/ (style sheets). The page carries their text (webview-html.ts); these two
 * directories are also the webview's `localResourceRoots`, so the rest of dist/ (the extension host bundle, the
 * runtime CLI) and the rest of media/ cannot be fetched from inside the webview. Pure: no `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Extension-relative directories the webview may load from. */
export const WEBVIEW_ROOT_DIRS = ['dist/webview', 'media/webview'] as const;
/** The webview bundle, relative to the extension folder (esbuild.mjs writes it there). */
export const WEBVIEW_SCRIPT = 'dist/webview/webview.js';

/** Paths relative to the extension folder, `/`-separated (for `vscode.Uri.joinPath(extensionUri, ...)`). */
export interface WebviewResources {
  /** Directories for `localResourceRoots`. */
  roots: string[];
  /** The bundle. */
  script: string;
  /** Style sheets: the bundle's own (when esbuild emitted one), then media/webview/*.css by name. */
  styles: string[];
}

export function webviewResources(extensionPath: string): WebviewResources {
  const abs = (rel: string) => path.join(extensionPath, ...rel.split('/'));
  const styles: string[] = [];
  if (fs.existsSync(abs('dist/webview/webview.css'))) styles.push('dist/webview/webview.css');
  if (fs.existsSync(abs('media/webview'))) {
    for (const f of fs.readdirSync(abs('media/webview')).filter((n) => n.endsWith('.css')).sort()) styles.push(`media/webview/${f}`);
  }
  return { roots: [...WEBVIEW_ROOT_DIRS], script: WEBVIEW_SCRIPT, styles };
}

/** Whether the relative path `file` lies inside one of the relative directories `roots` (VS Code's check: a prefix up to a `/`). */
export function underRoots(file: string, roots: readonly string[]): boolean {
  const f = path.posix.normalize(file);
  return roots.some((r) => f.startsWith(`${path.posix.normalize(r).replace(/\/$/, '')}/`));
}
