/** Entry of the chat webview bundle (dist/webview/webview.js). */
import { ChatApp } from './view/app';
import { connectHost } from './view/vscodeApi';
import { scheduleWarmUp } from './view/warmUp';

function start(): void {
  const mount = document.getElementById('root') ?? document.body;
  new ChatApp(connectHost(), mount);
  performance.mark('agentcli:input-ready'); // the prompt box is usable (read by bench/editor-bench.ts)
  scheduleWarmUp();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
