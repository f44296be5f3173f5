// The floor: a bare Node chat-completions loop doing the benchmark task's round trips (read a file, write a file,
// stream the answer), with no agent harness. Usage: node baseline-loop.mjs <baseUrl ending in /v1> <prompt>
import { readFileSync, writeFileSync } from 'node:fs';
const [base, prompt] = process.argv.slice(2);
const tools = [
  { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
  { type: 'function', function: { name: 'write_file', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } } },
];
const messages = [{ role: 'user', content: prompt }];
for (;;) {
  const res = await fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages, tools, stream: true }),
  });
  let text = '', buf = '';
  const calls = [];
  for await (const chunk of res.body) {
    buf += Buffer.from(chunk).toString();
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const frame = buf.slice(0, i).replace(/^data: /, '');
      buf = buf.slice(i + 2);
      if (frame === '[DONE]') continue;
      const delta = JSON.parse(frame).choices[0]?.delta ?? {};
      if (delta.content) { text += delta.content; process.stdout.write(delta.content); }
      for (const tc of delta.tool_calls ?? []) {
        const c = (calls[tc.index] ??= { id: tc.id, name: '', args: '' });
        if (tc.function?.name) c.name = tc.function.name;
        if (tc.function?.arguments) c.args += tc.function.arguments;
      }
    }
  }
  messages.push({ role: 'assistant', content: text, tool_calls: calls.length ? calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) : undefined });
  if (!calls.length) break;
  for (const c of calls) {
    const a = JSON.parse(c.args);
    const out = c.name === 'read_file' ? readFileSync(a.path, 'utf8') : (writeFileSync(a.path, a.content), 'ok');
    messages.push({ role: 'tool', tool_call_id: c.id, content: out });
  }
}
process.stdout.write('\n');
