/** Entry of the chat webview bundle (dist/webview/webview.js). */
import { ChatApp } from './view/app';
import { connectHost } from './view/vscodeApi';
import { scheduleWarmUp } from './view/warmUp';

function start(): void {
  const mount = document.getElementById('root') ?? document.body;
  new ChatApp(connectHost(), mount);
  // The panel runs (read by bench/editor-bench.ts). The prompt box was usable before: the page carries it and marks
  // agentcli:input-ready when it is first drawn (src/extension/chat/webview-html.ts).
  performance.mark('agentcli:panel-started');
  scheduleWarmUp();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
