/**
 * The browser handoff page: one self-contained document (no remote content) whose script and style run only with the
 * response's nonce. Everything the model or a tool wrote is put in with `textContent`, never parsed as HTML.
 */

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{padding:10px 16px;background:#1d2330;color:#fff;display:flex;gap:12px;align-items:center}
header h1{font-size:15px;margin:0;font-weight:600}
#status{font-size:12px;opacity:.85}
main{max-width:900px;margin:0 auto;padding:12px 16px 140px}
.msg{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:8px 10px;margin:8px 0;white-space:pre-wrap;word-break:break-word}
.msg .role{font-size:11px;text-transform:uppercase;color:#6a7385;margin-bottom:3px;letter-spacing:.04em}
.user{border-left:4px solid #3b6fd8}.assistant{border-left:4px solid #2f9e63}.tool{border-left:4px solid #a0a7b4;font-family:ui-monospace,monospace;font-size:12px}
.card{background:#fff7e0;border:1px solid #e8c66a;border-radius:6px;padding:10px;margin:8px 0}
.card button{margin-right:6px}
#error{color:#b3261e;white-space:pre-wrap}
footer{position:fixed;bottom:0;left:0;right:0;background:#fff;border-top:1px solid #dde1e7;padding:10px 16px}
footer form{max-width:900px;margin:0 auto;display:flex;gap:8px}
textarea{flex:1;min-height:48px;font:inherit;padding:6px}
button{font:inherit;padding:6px 12px;cursor:pointer}
`;

const SCRIPT = `
(() => {
  const $ = (id) => document.getElementById(id);
  const transcript = $('transcript'), pending = $('pending'), statusEl = $('status'), errorEl = $('error');
  const live = new Map();
  const setStatus = (t) => { statusEl.textContent = t; };
  const showError = (t) => { errorEl.textContent = t || ''; };
  function addMessage(role, text) {
    const box = document.createElement('div');
    box.className = 'msg ' + role;
    const label = document.createElement('div');
    label.className = 'role';
    label.textContent = role;
    const body = document.createElement('div');
    body.className = 'body';
    body.textContent = text;
    box.append(label, body);
    transcript.append(box);
    box.scrollIntoView({ block: 'end' });
    return body;
  }
  async function call(path, body) {
    const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}), credentials: 'same-origin' });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.message || ('request failed: ' + res.status));
    return data;
  }
  function card(id, title, detail, buttons) {
    const el = document.createElement('div');
    el.className = 'card';
    el.id = id;
    const h = document.createElement('strong');
    h.textContent = title;
    const d = document.createElement('div');
    d.textContent = detail;
    d.style.whiteSpace = 'pre-wrap';
    el.append(h, d);
    for (const [label, action] of buttons) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.addEventListener('click', () => { action().then(() => el.remove(), (e) => showError(e.message)); });
      el.append(b);
    }
    pending.append(el);
  }
  function permissionCard(p) {
    if (document.getElementById('perm-' + p.requestId)) return;
    const detail = p.command && !p.description.includes(p.command) ? p.description + '\\n' + p.command : p.description;
    card('perm-' + p.requestId, 'Permission: ' + p.tool, detail, [
      ['Allow', () => call('/api/permission', { requestId: p.requestId, allowed: true })],
      ['Deny', () => call('/api/permission', { requestId: p.requestId, allowed: false })],
    ]);
  }
  function batchCard(b) {
    if (!b || document.getElementById('batch-' + b.id)) return;
    const files = (b.changes || []).map((c) => c.path).join('\\n');
    card('batch-' + b.id, 'Changes waiting for a decision', files, [
      ['Accept all', () => call('/api/decide', { batchId: b.id, decision: 'accept_all' })],
      ['Reject all', () => call('/api/decide', { batchId: b.id, decision: 'reject_all' })],
    ]);
  }
  function onEvent(e) {
    switch (e.type) {
      case 'agent_start': setStatus('running'); addMessage('user', e.prompt); break;
      case 'message_update': {
        let body = live.get(e.messageId);
        if (!body) { body = addMessage('assistant', ''); live.set(e.messageId, body); }
        body.textContent += e.delta;
        break;
      }
      case 'message_end': {
        const body = live.get(e.messageId);
        if (body) body.textContent = e.content; else if (e.content) addMessage('assistant', e.content);
        live.delete(e.messageId);
        break;
      }
      case 'tool_start': addMessage('tool', e.toolName + ' ' + JSON.stringify(e.args)); break;
      case 'permission_request': permissionCard(e); break;
      case 'permission_resolved': { const el = document.getElementById('perm-' + e.requestId); if (el) el.remove(); break; }
      case 'change_batch_ready': batchCard(e.batch); break;
      case 'change_batch_decided': { const el = document.getElementById('batch-' + e.batchId); if (el) el.remove(); break; }
      case 'agent_end': setStatus('idle'); if (e.error) showError(e.error.message || String(e.error)); break;
      case 'error': showError(e.message); break;
      case 'handoff_released': setStatus('the session moved to another surface'); break;
      default: break;
    }
  }
  async function load() {
    const res = await fetch('/api/transcript', { credentials: 'same-origin' });
    const data = await res.json();
    if (!res.ok) throw new Error(data.message || 'cannot read the transcript');
    $('session').textContent = data.sessionId;
    transcript.textContent = '';
    for (const m of data.messages) {
      if (m.role === 'user' || m.role === 'assistant') { if (m.content) addMessage(m.role, m.content); }
      else if (m.role === 'tool') addMessage('tool', (m.toolName || 'tool') + ': ' + m.content);
    }
    for (const p of data.state.pendingPermissions) permissionCard(p);
    if (data.pendingBatch) batchCard(data.pendingBatch);
    setStatus(data.state.status);
    const source = new EventSource('/api/events');
    source.onmessage = (m) => { try { onEvent(JSON.parse(m.data)); } catch (err) { showError(String(err)); } };
    source.onerror = () => setStatus('disconnected (the runtime that created this handoff must stay open)');
  }
  async function start() {
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    history.replaceState(null, '', location.pathname);
    if (token) await call('/api/attach', { token });
    await load();
    document.body.dataset.attached = 'true';
  }
  $('prompt-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = $('prompt');
    const message = input.value.trim();
    if (!message) return;
    showError('');
    call('/api/prompt', { message }).then(() => { input.value = ''; }, (e) => showError(e.message));
  });
  $('stop').addEventListener('click', () => { call('/api/abort').catch((e) => showError(e.message)); });
  start().catch((e) => { setStatus('not attached'); showError(e.message); document.querySelector('footer').hidden = true; document.body.dataset.attached = 'false'; });
})();
`;

export function handoffPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>agentcli session</title><style nonce="${nonce}">${STYLE}</style></head>
<body><header><h1>agentcli</h1><span id="session"></span><span id="status">attaching…</span></header>
<main><div id="error" role="alert"></div><div id="pending"></div><div id="transcript"></div></main>
<footer><form id="prompt-form"><textarea id="prompt" placeholder="Message the agent"></textarea>
<button type="submit" id="send">Send</button><button type="button" id="stop">Stop</button></form></footer>
<script nonce="${nonce}">${SCRIPT}</script></body></html>`;
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
