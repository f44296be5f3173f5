/**
 * E2E cases: model selection, settings reaching the runtime, the diagnostics editor tool, crash and recovery.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import {
  chatRequests,
  chatView,
  editSettings,
  expect,
  openFile,
  requestText,
  runCommand,
  sendPrompt,
  shot,
  statusBar,
  toast,
  waitFor,
  waitForChatRequests,
  type E2ECase,
  type E2EContext,
} from './harness';

/** The runtime process serving our workspace (found by its command line and cwd; never a broad kill). */
export function runtimePid(workspace: string): number | undefined {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m || !m[2]!.includes('agentcli.js') || !m[2]!.includes('--mode rpc')) continue;
    try {
      if (fs.realpathSync(`/proc/${m[1]}/cwd`) === fs.realpathSync(workspace)) return Number(m[1]);
    } catch {
      /* gone meanwhile */
    }
  }
  return undefined;
}

export async function ask(ctx: E2EContext, prompt: string, answer: string): Promise<void> {
  ctx.script.push({ text: answer });
  await sendPrompt(ctx.page, prompt);
  await chatView(ctx.page).getByText(answer).first().waitFor({ timeout: 30000 });
}

export const editorCases: E2ECase[] = [
  {
    name: 'Select Model from the palette changes the status bar and the next request\'s model',
    run: async (ctx) => {
      ctx.stub.setModels(['stub-model', 'stub-model-large']);
      await runCommand(ctx.page, 'agentcli: Select Model');
      const row = ctx.page.locator('.quick-input-list .monaco-list-row', { hasText: 'stub-model-large' }).first();
      await row.waitFor({ timeout: 20000 });
      await shot(ctx, '14-select-model-pick');
      await row.click();
      await statusBar(ctx.page, 'ggufserver/stub-model-large').waitFor({ timeout: 20000 });
      await shot(ctx, '15-model-selected');
      const before = chatRequests(ctx.stub).length;
      await ask(ctx, 'Which model are you?', 'Answered by the large model.');
      const reqs = await waitForChatRequests(ctx, before + 1);
      expect(reqs[before]!.body?.model === 'stub-model-large', `the next request used model ${String(reqs[before]!.body?.model)}`);
    },
  },
  {
    name: 'a settings change reaches the runtime; an invalid value names the setting',
    run: async (ctx) => {
      editSettings(ctx, { 'agentcli.ggufserver.temperature': 0.25 });
      await ctx.page.waitForTimeout(2500); // file watcher → configuration change → configure()
      const before = chatRequests(ctx.stub).length;
      await ask(ctx, 'Answer with the new temperature.', 'Temperature applied.');
      const reqs = await waitForChatRequests(ctx, before + 1);
      expect(reqs[before]!.body?.temperature === 0.25, `the request used temperature ${String(reqs[before]!.body?.temperature)}`);
      editSettings(ctx, { 'agentcli.ggufserver.temperature': 7 });
      await toast(ctx.page, 'agentcli.ggufserver.temperature').waitFor({ timeout: 20000 });
      await shot(ctx, '16-invalid-setting');
      editSettings(ctx, { 'agentcli.ggufserver.temperature': 0.25 });
      await ctx.page.keyboard.press('Escape');
    },
  },
  {
    name: 'the diagnostics editor tool returns the real diagnostics of a file with an error',
    run: async (ctx) => {
      await openFile(ctx.page, 'src/has-a-type-error.ts');
      // wait until the language service has reported the error (the squiggle)
      await ctx.page.locator('.squiggly-error').first().waitFor({ timeout: 60000 });
      const before = chatRequests(ctx.stub).length;
      ctx.script.push(
        { toolCalls: [{ name: 'editor_diagnostics', arguments: { path: 'src/has-a-type-error.ts' } }] },
        { text: 'The editor reports one type error.' },
      );
      await runCommand(ctx.page, 'agentcli: Open Chat');
      await sendPrompt(ctx.page, 'What problems does the editor report in src/has-a-type-error.ts?');
      await chatView(ctx.page).getByText('The editor reports one type error.').first().waitFor({ timeout: 40000 });
      const reqs = await waitForChatRequests(ctx, before + 2);
      const text = requestText(reqs[before + 1]!);
      expect(/not assignable to type 'number'/.test(text), `the tool result lacks the type error; the model got:\n${text.slice(-800)}`);
      expect(text.includes('has-a-type-error.ts:4'), 'the tool result does not name the file and line');
      await shot(ctx, '17-editor-tool-diagnostics');
    },
  },
  {
    name: 'the runtime killed mid-turn shows the error and recovers',
    run: async (ctx) => {
      ctx.script.push({ text: 'Zebracrossing begins a long answer that a crash will cut off, word by word by word by word.', chunkDelayMs: 300, hang: true });
      await sendPrompt(ctx.page, 'Start a long answer.');
      await chatView(ctx.page).getByText('Zebracrossing', { exact: false }).first().waitFor({ timeout: 30000 });
      const pid = await waitFor('the runtime process', () => runtimePid(ctx.workspace));
      process.kill(pid, 'SIGKILL');
      await chatView(ctx.page).getByText(/stopped unexpectedly/i).first().waitFor({ timeout: 20000 });
      await chatView(ctx.page).getByText(/run was interrupted/i).first().waitFor({ timeout: 20000 });
      await shot(ctx, '18-runtime-crashed');
      // restarts by itself (backoff 1 s); the transcript stays
      await waitFor('a new runtime process', () => {
        const p = runtimePid(ctx.workspace);
        return p !== undefined && p !== pid ? p : undefined;
      }, 30000);
      // the transcript stays, including the cut-off answer
      await chatView(ctx.page).getByText('Zebracrossing', { exact: false }).first().waitFor({ timeout: 5000 });
      await ctx.page.waitForTimeout(1500);
      await ask(ctx, 'Are you back?', 'Back after the restart.');
      await shot(ctx, '19-runtime-recovered');
    },
  },
];
