/**
 * While the panel waits for its first `init` (the extension may still be starting the runtime and restoring the chat),
 * run the parsers once on a small sample: zod builds its schemas' lookup tables and the JIT compiles marked,
 * DOMPurify and highlight.js on their first use. That first use would otherwise land on the restored transcript's
 * first frame. Nothing is shown or kept. The message checks are the ones the panel loads after it is built.
 */
import { loadContract, type PanelContract } from '../model/loadContract';
import { renderMarkdown } from './markdown';

const SAMPLE_ANSWER = 'A **short** answer with `code`, a [link](src/a.ts#L1) and:\n\n- a list\n\n```ts\nconst a: number = 1;\n```\n';

function warmUp({ safeParseToWebview }: PanelContract): void {
  const ids = { runId: 'r', messageId: 'm', toolCallId: 't' };
  safeParseToWebview({
    type: 'init',
    items: [
      { kind: 'user', id: 'u', text: 'q', context: [] },
      { kind: 'tool', id: 't', ...ids, toolName: 'read_file', argsSummary: 'a', output: '', outputTruncated: false, status: 'success' },
      { kind: 'assistant', id: 'a', ...ids, text: SAMPLE_ANSWER, streaming: false },
    ],
    state: { provider: '', model: '', permissionMode: 'interactive', planMode: false, yolo: { active: false }, running: false },
    runtime: { status: 'ready' },
  });
  safeParseToWebview({ type: 'event', event: { type: 'message_update', sessionId: 's', turnId: 'u', ...ids, delta: 'x' } });
  renderMarkdown(SAMPLE_ANSWER, { openFile: () => undefined, copy: () => undefined });
}

/** Warm up when the page is idle (soon after load either way). */
export function scheduleWarmUp(): void {
  const run = () => void loadContract().then(warmUp);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 200 });
  else setTimeout(run, 0);
}
