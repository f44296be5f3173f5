/**
 * Entry point. Activation is lazy (the chat view or a command) and cheap: it registers the view, the content
 * provider and the commands; the runtime process starts only when something needs it.
 */
import * as vscode from 'vscode';
import { App } from './app';
import { registerCommands } from './commands';

let app: App | undefined;

export function activate(context: vscode.ExtensionContext): { activationMs: number } {
  const started = performance.now();
  app = new App(context);
  context.subscriptions.push(app, ...registerCommands(app, context));
  const activationMs = performance.now() - started;
  app.output.info(`activated in ${activationMs.toFixed(1)} ms`);
  return { activationMs };
}

export function deactivate(): void {
  app?.dispose();
  app = undefined;
}
