/** Entry of the chat webview bundle (dist/webview/webview.js). */
import { ChatApp } from './view/app';
import { connectHost } from './view/vscodeApi';

function start(): void {
  const mount = document.getElementById('root') ?? document.body;
  new ChatApp(connectHost(), mount);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
