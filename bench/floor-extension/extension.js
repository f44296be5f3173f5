// The floor of bench/editor-bench.ts (not part of the product): a webview view whose page is a prompt box and whose
// extension echoes each prompt back at once. It has what every chat panel in the editor must pay (activation on the
// view, the webview document, a message to the extension host and one back) and nothing of agentcli's. The page marks
// `agentcli:input-ready` and `agentcli:transcript-shown` like the real panel, so the bench reads both the same way.
// A prompt that says "ask-model" is instead sent, from the extension host, to the model at the `floor.modelUrl` setting
// (an OpenAI-style chat completions endpoint, streamed), and the first text it streams back is shown: what a panel pays
// that asks the model with nothing in between.
const vscode = require('vscode');
const http = require('node:http');

/**
 * The streamed text of a chat completion for `prompt`, straight from the extension host, as soon as it holds the
 * answer's `[[marker]]` (the bench's stub streams it in 4-character pieces, the first of them at once).
 */
function firstText(baseUrl, prompt) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ model: 'stub-model', stream: true, messages: [{ role: 'user', content: prompt }] });
    const req = http.request(new URL('/v1/chat/completions', baseUrl), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let buffered = '';
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop();
        for (const line of lines) if (line.startsWith('data: {')) text += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '';
        if (text.includes(']]')) {
          resolve(text);
          res.destroy();
        }
      });
      res.on('end', () => reject(new Error('the model streamed no text')));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<div id="log"></div><textarea data-testid="prompt-input" rows="3" style="width:95%"></textarea>
<script>
  const api = acquireVsCodeApi();
  const box = document.querySelector('textarea');
  const log = document.getElementById('log');
  box.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.shiftKey) return;
    e.preventDefault();
    const you = document.createElement('div');
    you.textContent = box.value;
    log.append(you);
    api.postMessage({ type: 'sendPrompt', text: box.value });
    box.value = '';
  });
  window.addEventListener('message', (ev) => {
    const answer = document.createElement('div');
    answer.dataset.testid = 'assistant-message';
    answer.textContent = ev.data.text;
    log.append(answer);
  });
  // as agentcli's page marks them: the first frame that shows the box (and there is no transcript to restore)
  requestAnimationFrame(() => {
    performance.mark('agentcli:input-ready');
    performance.mark('agentcli:panel-started');
    performance.mark('agentcli:transcript-shown');
  });
</script></body></html>`;

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider('floor.chat', {
      resolveWebviewView(view) {
        view.webview.options = { enableScripts: true };
        view.webview.onDidReceiveMessage((m) => {
          const modelUrl = vscode.workspace.getConfiguration('floor').get('modelUrl');
          if (modelUrl && /ask-model/.test(String(m.text))) {
            firstText(modelUrl, String(m.text)).then(
              (text) => view.webview.postMessage({ text }),
              (e) => view.webview.postMessage({ text: `floor: ${e.message}` }),
            );
            return;
          }
          // the prompt carries the answer's marker, as the bench's model stub would answer it
          const marker = /bench prompt (\w+)/.exec(String(m.text))?.[1] ?? 'none';
          void view.webview.postMessage({ text: `[[${marker}]] first words of the answer, then some more.` });
        });
        view.webview.html = PAGE;
      },
    }),
    vscode.commands.registerCommand('floor.open', () => vscode.commands.executeCommand('floor.chat.focus')),
  );
};
exports.deactivate = () => undefined;
