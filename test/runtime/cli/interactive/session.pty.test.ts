import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RUNTIME_VERSION } from '../../../../src/runtime/version';
import { startServiceAiStub } from '../../../stubs/serviceai-stub';
import { useTmuxSession } from './tmux-terminal';
import { makeTempDir } from '../../../helpers/temp-dir';

/** The main prompt at the start of a line (tmux drops trailing spaces from captured lines). */
const PROMPT = /^›( |$)/m;

describe('agentcli interactive session (in a pseudo-terminal)', function () {
  const s = useTmuxSession(this);
  const open = (files: Record<string, string> = {}, env: Record<string, string> = {}) => s.open([], files, env);

  /** The last user message of the n-th chat request the stub received. */
  const lastUserMessage = (n: number) => [...s.stub.requests.filter((r) => r.path.endsWith('/chat/completions'))[n]!.body.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content;

  it('shows the banner, streams an answer, and /exit leaves with code 0 (NO_COLOR: no color codes)', async () => {
    const t = open({}, { NO_COLOR: '1' });
    const banner = await t.waitFor(PROMPT);
    assert.match(banner, new RegExp(`agentcli ${RUNTIME_VERSION.replace(/\./g, '\\.')}`));
    assert.match(banner, /model\s+ggufserver\//);
    assert.ok(banner.includes(s.cwd), banner);
    assert.match(banner, /permissions\s+interactive/);
    assert.match(banner, /\/help/);

    s.stub.enqueue({ text: 'Hello from the stub model, streamed in pieces.' });
    t.line('say hello');
    await t.waitFor(PROMPT, { count: 2 });
    assert.match(t.screen(), /› say hello\nHello from the stub model, streamed in pieces\.\n›( |$)/m);
    assert.equal(lastUserMessage(0), 'say hello');
    const afterEscapes = t.screen({ escapes: true }).split('\u001b').slice(1);
    assert.ok(!afterEscapes.some((s) => /^\[3\dm/.test(s)), 'NO_COLOR is honoured: no foreground colors');
    t.line('/exit');
    await t.waitFor(/__EXIT \d+__/);
    assert.equal(t.exitCode(), 0);
  });

  it('asks permission at the keyboard: "o" runs the command once, "d" denies it', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch allowed.txt' } }] }, { text: 'first done' });
    t.line('make a file');
    const asked = await t.waitFor(/\[o\]nce \/ \[s\]ession \/ \[a\]lways \/ \[d\]eny \/ alternati\[v\]e ›$/);
    assert.match(asked, /Permission needed: run_command/);
    assert.match(asked, /command: touch allowed\.txt/);
    t.line('o');
    await t.waitFor(/first done/);
    assert.match(t.screen(), /● run_command touch allowed\.txt ✓/);
    assert.ok(existsSync(path.join(s.cwd, 'allowed.txt')));

    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch denied.txt' } }] }, { text: 'second done' });
    t.line('make another');
    await t.waitFor(/Permission needed: run_command/, { count: 2 });
    t.line('x');
    await t.waitFor(/"x" is not one of the choices/);
    t.line('d');
    await t.waitFor(/second done/);
    assert.match(t.screen(), /● run_command touch denied\.txt ✗ .*denied/);
    assert.equal(existsSync(path.join(s.cwd, 'denied.txt')), false);
    const toolResult = s.stub.requests.at(-1)!.body.messages.find((m: { role: string; content: string }) => m.role === 'tool' && /denied\.txt/.test(m.content));
    assert.match(toolResult.content, /the user denied/);
  });

  it('asks for directory access (once / session / deny) and takes an alternative instead of a command', async () => {
    const outside = makeTempDir('agentcli-outside-');
    writeFileSync(path.join(outside, 'notes.txt'), 'outside content\n');
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'notes.txt') } }] }, { text: 'read it' });
    t.line('read the notes');
    const asked = await t.waitFor(/\[o\]nce \/ \[s\]ession \/ \[d\]eny ›$/);
    assert.ok(asked.includes(`Access outside the workspace: ${outside}`), asked);
    t.line('s');
    // The folder is granted, so the read asks no second question.
    await t.waitFor(/^read it$/m);
    assert.doesNotMatch(t.screen(), /Permission needed: read_file/);
    assert.match(t.screen(), /● read_file .*notes\.txt ✓/);
    assert.ok(JSON.stringify(s.stub.requests.at(-1)!.body.messages).includes('outside content'));

    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'rm -rf build' } }] }, { text: 'understood' });
    t.line('clean up');
    await t.waitFor(/alternati\[v\]e ›$/);
    t.line('v');
    await t.waitFor(/what should the agent do instead\? ›$/);
    t.line('only delete build/cache');
    await t.waitFor(/^understood$/m);
    const toolResult = s.stub.requests.at(-1)!.body.messages.find((m: { role: string; content: string }) => m.role === 'tool' && /rm -rf build/.test(m.content));
    assert.match(toolResult.content, /asks you to do this instead: only delete build\/cache/);
    rmSync(outside, { recursive: true, force: true });
  });

  it('reviews a two-file batch as colored diffs; picking one file writes only that file', async () => {
    const t = open({ 'a.txt': 'old line\n' });
    await t.waitFor(PROMPT);
    s.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'a.txt', content: 'new line\n' } },
          { name: 'write_file', arguments: { path: 'b.txt', content: 'created\n' } },
        ],
      },
      { text: 'edited two files' },
    );
    t.line('edit files');
    const review = await t.waitFor(/\[a\]ccept all \/ \[r\]eject all \/ \[p\]ick files ›$/);
    assert.match(review, /── modify a\.txt \(\+1 −1\) ──\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,1 \+1,1 @@\n-old line\n\+new line/);
    assert.match(review, /── create b\.txt \(\+1 −0\) ──\n--- \/dev\/null\n\+\+\+ b\/b\.txt/);
    assert.equal(readFileSync(path.join(s.cwd, 'a.txt'), 'utf8'), 'old line\n', 'nothing is written before the decision');
    const colored = t.screen({ escapes: true });
    assert.ok(colored.includes('\u001b[32m+new line'), 'additions are green');
    assert.ok(colored.includes('\u001b[31m-old line'), 'removals are red');

    t.line('p');
    await t.waitFor(/ 1\. modify a\.txt .*\n +2\. create b\.txt/);
    t.line('5');
    await t.waitFor(/"5" is out of range: the files are numbered 1 to 2/);
    t.line('1');
    await t.waitFor(/– rejected b\.txt/);
    assert.match(t.screen(), /✓ applied +a\.txt\n +– rejected b\.txt\n›( |$)/m);
    assert.equal(readFileSync(path.join(s.cwd, 'a.txt'), 'utf8'), 'new line\n');
    assert.equal(existsSync(path.join(s.cwd, 'b.txt')), false);
  });

  it('picks single hunks: the diffs name them, a wrong one is explained, and only the chosen hunk is written', async () => {
    const original = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const t = open({ 'h.txt': original });
    await t.waitFor(PROMPT);
    s.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'h.txt', content: original.replace('line 2\n', 'TWO\n').replace('line 18\n', 'EIGHTEEN\n') } },
          { name: 'write_file', arguments: { path: 'b.txt', content: 'created\n' } },
        ],
      },
      { text: 'edited' },
    );
    t.line('edit files');
    const review = await t.waitFor(/\[a\]ccept all \/ \[r\]eject all \/ \[p\]ick files or hunks ›$/);
    assert.match(review, /── 1\. modify h\.txt \(\+2 −2\) ──\n--- a\/h\.txt\n\+\+\+ b\/h\.txt\n@@ -1,5 \+1,5 @@ {2}\[1\.1\]/);
    assert.match(review, /@@ -15,6 \+15,6 @@ {2}\[1\.2\]/);
    assert.match(review, /── 2\. create b\.txt \(\+1 −0\) ──/);
    t.line('p');
    await t.waitFor(/ 1\. modify h\.txt \(\+2 −2\) {2}hunks 1\.1–1\.2\n +2\. create b\.txt/);
    await t.waitFor(/files or hunks to apply \(e\.g\. 1,3 or 2\.1,2\.3; empty goes back\) ›$/);
    t.line('1.3');
    await t.waitFor(/"1\.3" is out of range: the hunks of file 1 are 1\.1 to 1\.2/);
    t.line('2.1');
    await t.waitFor(/file 2 has no hunks to pick/);
    t.line('1.2, 2');
    await t.waitFor(/✓ applied +b\.txt/);
    assert.match(t.screen(), /✓ applied +h\.txt \(1 of 2 hunks\)\n +✓ applied +b\.txt\n›( |$)/m);
    assert.equal(readFileSync(path.join(s.cwd, 'h.txt'), 'utf8'), original.replace('line 18\n', 'EIGHTEEN\n'), 'only the second hunk was written');
    assert.equal(readFileSync(path.join(s.cwd, 'b.txt'), 'utf8'), 'created\n');
  });

  it('/model lists the server’s models and switches; /model <provider>/<model> switches both; bad input is explained', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.setModels(['alpha-7b', 'beta-13b']);
    t.line('/model');
    await t.waitFor(/model number \(empty keeps .*\) ›$/);
    assert.match(t.screen(), /Models of ggufserver .*\n +1\. alpha-7b\n +2\. beta-13b/);
    t.line('9');
    await t.waitFor(/"9" is not a model number/);
    t.line('2');
    await t.waitFor(/now using ggufserver\/beta-13b/);
    s.stub.enqueue({ text: 'ok' });
    t.line('which model');
    await t.waitFor(/^ok$/m);
    assert.equal(s.stub.requests.at(-1)!.body.model, 'beta-13b');

    t.line('/model ggufserver/x');
    await t.waitFor(/now using ggufserver\/x/);
    t.line('/model nowhere/x');
    await t.waitFor(/unknown provider "nowhere" in "nowhere\/x": providers are serviceai, localrunner, ggufserver, vendorapi, cloudhub/);
    t.line('/provider vendorapi');
    await t.waitFor(/cannot switch to vendorapi: .*\n +remedy: /);
    t.line('/frobnicate');
    await t.waitFor(/unknown command \/frobnicate: type \/help/);
    s.stub.enqueue({ text: 'still x' });
    t.line('and now');
    await t.waitFor(/^still x$/m);
    assert.equal(s.stub.requests.at(-1)!.body.model, 'x', 'failed switches leave the selection alone');
  });

  it('/help lists every command with what it does', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    t.line('/help');
    const help = await t.waitFor(/Anything else is a prompt for the agent/);
    for (const cmd of ['/model', '/model <provider>/<model>', '/provider <id>', '/plan [on|off]', '/review', '/reset', '/help', '/exit']) {
      assert.ok(help.includes(`  ${cmd} `), `${cmd} is listed:\n${help}`);
    }
    assert.match(help, /\/reset +start a new conversation/);
    assert.equal(s.stub.requests.length, 0, 'help sends nothing to the model');
  });

  it('batch review "a" accepts all: every file of the batch is written', async () => {
    const t = open({ 'a.txt': 'old\n' });
    await t.waitFor(PROMPT);
    s.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'a.txt', content: 'new\n' } },
          { name: 'write_file', arguments: { path: 'c.txt', content: 'third\n' } },
        ],
      },
      { text: 'both written' },
    );
    t.line('edit both');
    await t.waitFor(/\[a\]ccept all \/ \[r\]eject all \/ \[p\]ick files ›$/);
    assert.equal(existsSync(path.join(s.cwd, 'c.txt')), false, 'nothing is written before the decision');
    t.line('a');
    await t.waitFor(/✓ applied +a\.txt\n[\s\S]*✓ applied +c\.txt\n[\s\S]*›( |$)/);
    assert.equal(readFileSync(path.join(s.cwd, 'a.txt'), 'utf8'), 'new\n');
    assert.equal(readFileSync(path.join(s.cwd, 'c.txt'), 'utf8'), 'third\n');
  });

  it('permission "s" (session) runs the command and does not ask again for the same command', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch s1.txt' } }] }, { text: 'first' });
    t.line('touch it');
    await t.waitFor(/alternati\[v\]e ›$/);
    t.line('s');
    await t.waitFor(/^first$/m);
    assert.ok(existsSync(path.join(s.cwd, 's1.txt')));
    rmSync(path.join(s.cwd, 's1.txt'));
    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch s1.txt' } }] }, { text: 'second' });
    t.line('touch it again');
    await t.waitFor(/^second$/m);
    assert.equal(t.screen().match(/Permission needed: run_command/g)?.length, 1, 'asked only the first time');
    assert.ok(existsSync(path.join(s.cwd, 's1.txt')), 'the second run was allowed by the session answer');
    const config = JSON.parse(readFileSync(path.join(s.cwd, '.agentcli', 'config.json'), 'utf8')) as { permissions?: { allow?: string[] } };
    assert.deepEqual(config.permissions?.allow ?? [], [], 'a session answer is not saved');
  });

  it('permission "a" (always) saves the rule to <s.cwd>/.agentcli/config.json and is not asked again', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch always.txt' } }] }, { text: 'kept' });
    t.line('touch always');
    const asked = await t.waitFor(/alternati\[v\]e ›$/);
    const rule = /session\/always would allow: (.+)$/m.exec(asked)?.[1]?.trim();
    assert.ok(rule, asked);
    t.line('a');
    await t.waitFor(/^kept$/m);
    const config = JSON.parse(readFileSync(path.join(s.cwd, '.agentcli', 'config.json'), 'utf8')) as { permissions?: { allow?: string[] } };
    assert.ok(config.permissions?.allow?.includes(rule), JSON.stringify(config));
    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch always.txt' } }] }, { text: 'again' });
    t.line('once more');
    await t.waitFor(/^again$/m);
    assert.equal(t.screen().match(/Permission needed: run_command/g)?.length, 1);
  });

  it('/model against the hosted catalog (Free plan): plans shown, outside picks refused, weka points to decisions', async () => {
    const service = await startServiceAiStub();
    try {
      service.addKey('free-key-123', 'Free');
      const t = open({}, { SERVICE_BASE_URL: service.origin, SERVICE_API_KEY: 'free-key-123', SERVICE_AI_API_KEY: 'free-key-123' });
      await t.waitFor(PROMPT);
      t.line('/model serviceai/moa');
      await t.waitFor(/cannot switch to serviceai\/moa: "moa" is not in your plan: included from the Pro plan[^\n]*\n +remedy: upgrade to a plan that includes "moa"/);
      t.line('/model serviceai/weka');
      await t.waitFor(/cannot switch to serviceai\/weka: .*agentcli decide/);
      t.line('/model serviceai/fantail');
      await t.waitFor(/now using serviceai\/fantail/);
      t.line('/model');
      const picker = await t.waitFor(/model number \(empty keeps fantail\) ›$/);
      assert.match(picker, /Models of serviceai \(current: fantail\):\n +1\. fantail 256K context \(current\)/);
      assert.match(picker, / +\d\. weka +unavailable: not in your plan: included from the Lite plan in the plan list; the model table says Pro and above/);
      assert.match(picker, / +\d\. moa +unavailable: not in your plan: included from the Pro plan/);
      const moa = /(\d)\. moa/.exec(picker)?.[1];
      assert.ok(moa);
      t.line(moa);
      await t.waitFor(/moa cannot be chosen: not in your plan: included from the Pro plan/);
      t.line('');
      await t.waitFor(PROMPT, { count: 5 });
      assert.ok(service.requests.every((r) => r.path === '/v1/models'), 'no chat request was sent for a refused model');
    } finally {
      await service.close();
    }
  });

  it('/reset starts a new conversation and keeps a pending batch, which is reviewed before the next prompt', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'kept.txt', content: 'k\n' } }] }, { text: 'proposed' });
    t.line('first question');
    await t.waitFor(/\[p\]ick files ›$/);
    t.press('C-c');
    await t.waitFor(/the changes stay pending/);
    t.line('/reset');
    await t.waitFor(/new conversation started\n.*1 proposed file change\(s\) wait for your decision.*\n +create kept\.txt/);

    s.stub.enqueue({ text: 'fresh answer' });
    t.line('second question');
    await t.waitFor(/› second question\n.*need a decision before the next prompt[\s\S]*\[p\]ick files ›$/);
    t.line('r');
    await t.waitFor(/^fresh answer$/m);
    assert.match(t.screen(), /– rejected kept\.txt/);
    assert.equal(existsSync(path.join(s.cwd, 'kept.txt')), false);
    const messages = s.stub.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(messages.filter((m) => m.role === 'user').map((m) => m.content), ['second question'], 'the reset dropped the first exchange');
  });

  it('Ctrl-C aborts a slow stream and returns to the prompt; Ctrl-D exits', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.enqueue({ text: 'This answer streams very slowly, four characters at a time, until someone interrupts it.', chunkDelayMs: 150 });
    t.line('go slowly');
    await t.waitFor(/This answer/);
    t.press('C-c');
    await t.waitFor(/■ run aborted\n›( |$)/m);
    assert.doesNotMatch(t.screen(), /until someone interrupts it\./);
    s.stub.enqueue({ text: 'after the abort' });
    t.line('again');
    await t.waitFor(/^after the abort$/m);
    t.press('C-d');
    await t.waitFor(/__EXIT \d+__/);
    assert.equal(t.exitCode(), 0);
  });

  it('Ctrl-C at a permission question aborts the run and closes the question', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch never.txt' } }] });
    t.line('do it');
    await t.waitFor(/alternati\[v\]e ›$/);
    t.press('C-c');
    await t.waitFor(/■ run aborted\n›( |$)/m);
    assert.match(t.screen(), /alternati\[v\]e › \^C\naborting the run/);
    assert.equal(existsSync(path.join(s.cwd, 'never.txt')), false);
    s.stub.enqueue({ text: 'fine' });
    t.line('next');
    await t.waitFor(/^fine$/m);
  });

  it('a second Ctrl-C right after the first, during a run, exits', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    s.stub.enqueue({ text: 'Slow words that keep on coming for quite a while before they end.', chunkDelayMs: 150 });
    t.line('go slowly');
    await t.waitFor(/Slow words/);
    t.press('C-c', 'C-c');
    await t.waitFor(/__EXIT \d+__/);
    assert.equal(t.exitCode(), 0);
  });

  it('Ctrl-C clears a typed line, and at an empty prompt exits', async () => {
    const t = open();
    await t.waitFor(PROMPT);
    t.type('never sent');
    t.press('C-c');
    await t.waitFor(PROMPT, { count: 2 });
    t.press('C-c');
    await t.waitFor(/__EXIT \d+__/);
    assert.equal(t.exitCode(), 0);
    assert.equal(s.stub.requests.length, 0);
  });
});
