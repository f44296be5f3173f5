// The editor bench's model (a test double, in a process of its own so the bench's own work, driving the browser, never
// delays its answers): answers each prompt "bench prompt <marker>" at once with "[[<marker>]] …", and tells the bench
// (over IPC) when each marker's request arrived. Started by bench/editor-bench.ts; prints `listening <origin>`.
import { startOpenAIStub } from '../test/stubs/openai-stub';

void (async () => {
  const asked = new Set<string>();
  const stub = await startOpenAIStub({
    fallback: (req) => {
      const at = performance.timeOrigin + req.receivedAt;
      const marker = [...JSON.stringify(req.body?.messages ?? []).matchAll(/bench prompt (\w+)/g)].at(-1)?.[1];
      if (marker === undefined) return { text: 'ok' };
      if (!asked.has(marker)) {
        asked.add(marker);
        process.send?.({ marker, at });
      }
      return { text: `[[${marker}]] first words of the answer, then some more.` };
    },
  });
  process.stdout.write(`listening ${stub.origin}\n`);
  process.on('disconnect', () => void stub.close().then(() => process.exit(0)));
})();
