/**
 * Entry point. Activation is lazy (the chat view or a command) and cheap: it registers the view, the content
 * provider and the commands; the runtime process starts only when something needs it.
 * The rest of the bundle is initialised inside activate() (a deferred require), so the logged activation time
 * includes loading the modules, not only the registrations.
 */
import type * as vscode from 'vscode';
import type { App } from './app';

let app: App | undefined;

export function activate(context: vscode.ExtensionContext): { activationMs: number; loadMs: number } {
  const started = performance.now();
  /* eslint-disable @typescript-eslint/no-require-imports -- deferred on purpose: measured, and nothing loads before activation */
  const { App: AppClass } = require('./app') as typeof import('./app');
  const { registerCommands } = require('./commands') as typeof import('./commands');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const loadMs = performance.now() - started;
  app = new AppClass(context);
  context.subscriptions.push(app, ...registerCommands(app, context));
  const activationMs = performance.now() - started;
  // The moment itself: the log stamps a line when it writes it, which the extension host can do much later.
  app.output.info(`activated in ${activationMs.toFixed(1)} ms (module load ${loadMs.toFixed(1)} ms) at ${new Date().toISOString()}`);
  return { activationMs, loadMs };
}

export function deactivate(): void {
  app?.dispose();
  app = undefined;
}
