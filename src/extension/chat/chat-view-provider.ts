/**
 * The chat panel: a webview view in its own activity-bar container. Its context is not retained when hidden;
 * when shown again the webview sends `ready` and gets the extension's snapshot (`init`). Every message from the
 * webview is validated against the contract before it is handled.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { FromWebview, ToWebviewInput } from '../../shared/chat/messages';
import type { Output } from '../output';
import { StreamedText } from './streamed-text';
import { missingFilesHtml, webviewHtml } from './webview-html';
import { webviewResources } from './webview-resources';

export const CHAT_VIEW_ID = 'agentcli.chat';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  /** The view's posts, streamed text joined while a piece is on its way (./streamed-text.ts). */
  private posts: StreamedText | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly visibility = new vscode.EventEmitter<boolean>();
  /** Fires true when the panel becomes visible, false when hidden or disposed. */
  readonly onDidChangeVisibility = this.visibility.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly output: Output,
    private readonly handle: (message: FromWebview) => void | Promise<void>,
  ) {}

  get visible(): boolean {
    return this.view?.visible === true;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.posts?.dispose();
    const posts = (this.posts = new StreamedText((message) => view.webview.postMessage(message)));
    // only the webview bundle's directory and media/webview: not the rest of dist/ (extension host, runtime CLI)
    const resources = webviewResources(this.extensionUri.fsPath);
    const uri = (rel: string) => vscode.Uri.joinPath(this.extensionUri, ...rel.split('/'));
    view.webview.options = { enableScripts: true, localResourceRoots: resources.roots.map(uri) };
    // The page carries its code and styles (see webview-html.ts): read here, so a rebuilt bundle is what the next panel gets.
    const text = (rel: string) => fs.readFileSync(uri(rel).fsPath, 'utf8');
    try {
      view.webview.html = webviewHtml({ cspSource: view.webview.cspSource, script: text(resources.script), styles: resources.styles.map(text) });
    } catch (e) {
      this.output.error(`the chat panel cannot load: ${e instanceof Error ? e.message : String(e)}`);
      view.webview.html = missingFilesHtml(resources.script);
    }
    this.disposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidChangeVisibility(() => this.visibility.fire(view.visible)),
      view.onDidDispose(() => {
        posts.dispose();
        if (this.view === view) {
          this.view = undefined;
          this.posts = undefined;
        }
        this.visibility.fire(false);
      }),
    );
    this.visibility.fire(view.visible);
  }

  private receive(raw: unknown): void {
    // the contract's schemas load with the first message, not at activation
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { safeParseFromWebview } = require('../../shared/chat/messages') as typeof import('../../shared/chat/messages');
    const parsed = safeParseFromWebview(raw);
    if (!parsed.ok) {
      this.output.error(parsed.error.message);
      return;
    }
    Promise.resolve(this.handle(parsed.message)).catch((e: unknown) =>
      this.output.error(`handling "${parsed.message.type}" failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
    );
  }

  /** Sends a message if the panel exists; returns false when there is no webview to receive it. */
  post(message: ToWebviewInput): boolean {
    if (!this.posts) return false;
    this.posts.post(message);
    return true;
  }

  /** Shows the panel (and its container) without moving focus into it unless asked. */
  async reveal(focus = false): Promise<void> {
    if (this.view) this.view.show(!focus);
    else await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  dispose(): void {
    this.posts?.dispose();
    for (const d of this.disposables) d.dispose();
    this.visibility.dispose();
  }
}
