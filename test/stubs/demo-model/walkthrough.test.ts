import assert from 'node:assert/strict';
import { readTurn, type DemoTurn } from './conversation';
import { tapSummary } from './file-flows';
import { DEMO_PROMPTS, chooseFlow, demoReply, type DemoFlow } from './walkthrough';

const TOOLS = ['read_file', 'list_files', 'grep', 'run_command', 'write_file', 'edit_file'].map((name) => ({ type: 'function', function: { name } }));
const PLAN_TOOLS = ['read_file', 'list_files', 'grep', 'submit_plan'].map((name) => ({ type: 'function', function: { name } }));

function turn(prompt: string, extra: Partial<DemoTurn> = {}): DemoTurn {
  return { prompt, instruction: '', results: [], offeredTools: TOOLS.map((t) => t.function.name), introduced: false, compaction: false, ...extra };
}

/** A request body: system prompt, history, the prompt, then this turn's calls and their results. */
function request(prompt: string, calls: { name: string; args: object; output: string }[] = [], opts: { tools?: object[]; history?: object[] } = {}) {
  const messages: object[] = [{ role: 'system', content: 'You are an agent.' }, ...(opts.history ?? []), { role: 'user', content: prompt }];
  calls.forEach((c, i) => {
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }] });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content: c.output });
  });
  return { model: 'demo-walkthrough', stream: true, messages, tools: opts.tools ?? TOOLS };
}

describe('demo walkthrough: choosing the flow', () => {
  it('maps each demo prompt to its flow and anything else to the help text', () => {
    const expected: DemoFlow[] = ['explain', 'tests', 'fix', 'plan', 'style-guide', 'error'];
    assert.deepEqual(DEMO_PROMPTS.map((p) => chooseFlow(turn(p))), expected);
    assert.equal(chooseFlow(turn('What is the weather like?')), 'help');
    assert.equal(chooseFlow(turn('')), 'help');
  });

  it('recognises an accepted plan\'s step messages and the summary instruction before the prompt words', () => {
    const step = 'The plan (step 2 of 2 runs now):\n1. [done] Add farewell(name) to src/greet.ts\n2. [in_progress] Print the farewell in src/main.ts\n\nDo step 2 only: Print the farewell in src/main.ts\nWhen it is done, answer with a one-line result. Fix nothing else.';
    assert.equal(chooseFlow(turn(step)), 'plan-step');
    assert.equal(chooseFlow(turn(step, { instruction: 'All plan steps have run. The plan with each step\'s outcome:\n1. [done] A' })), 'plan-summary');
  });
});

describe('demo walkthrough: reading the request', () => {
  it('takes the tool results after the last user message only, with the calls that asked for them', () => {
    const history = [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'old', tool_calls: [{ id: 'old', type: 'function', function: { name: 'grep', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'old', content: 'old result' }];
    const t = readTurn(request('now', [{ name: 'read_file', args: { path: 'a.txt' }, output: '     1\thello' }], { history }));
    assert.equal(t.prompt, 'now');
    assert.deepEqual(t.results, [{ name: 'read_file', args: { path: 'a.txt' }, output: '     1\thello' }]);
    const attached = readTurn(request('<file path="src/has-a-type-error.ts">\nconst error = 1;\n</file>\n<selection path="a.ts:1-2"/>\n\nFix it'));
    assert.equal(attached.prompt, 'Fix it', 'the context the editor attached is not part of the prompt');
    assert.deepEqual(readTurn('not a request'), { prompt: '', instruction: '', results: [], offeredTools: [], introduced: false, compaction: false });
  });
});

describe('demo walkthrough: replies', () => {
  it('introduces itself as a scripted test double once per conversation', () => {
    const first = demoReply(request('hello'));
    assert.match(first.text ?? '', /^\*I am \*\*demo-walkthrough\*\*, a scripted demo model \(a test double\)/);
    const later = demoReply(request('hello again', [], { history: [{ role: 'user', content: 'hello' }, { role: 'assistant', content: first.text }] }));
    assert.match(later.text ?? '', /^This scripted demo only knows these prompts/);
  });

  it('runs the tests first, then reports what the run returned: failures, a pass, or a denial', () => {
    const [, tests] = DEMO_PROMPTS;
    assert.deepEqual(demoReply(request(tests)).toolCalls, [{ name: 'run_command', arguments: { command: 'node --test --test-reporter=tap' } }]);
    const ran = (output: string) => demoReply(request(tests, [{ name: 'run_command', args: {}, output }])).text ?? '';
    assert.match(ran('ok 1 - a\nnot ok 2 - b breaks\n# pass 1\n# fail 1\nexit code 1'), /\*\*1 of 2 tests fail:\*\*\n\n- b breaks/);
    assert.match(ran('ok 1 - a\n# pass 1\n# fail 0\nexit code 0'), /All 1 tests pass\./);
    assert.match(ran('the user denied Run: node --test; do not retry it, ask the user or take another approach'), /You denied running the tests/);
    assert.match(ran('the user denied Run: node --test and asks you to do this instead: run only the first test'), /asked for this instead: \*run only the first test\*/);
  });

  it('proposes the fix only when the bug is still there', () => {
    const [, , fix] = DEMO_PROMPTS;
    const reads = (code: string) => [
      { name: 'read_file', args: { path: 'src/word-count.js' }, output: code.split('\n').map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n') },
      { name: 'read_file', args: { path: 'test/word-count.test.js' }, output: '     1\timport test from "node:test";' },
      { name: 'list_files', args: { pattern: 'CHANGELOG.md' }, output: 'No files in the workspace.' },
    ];
    const buggy = demoReply(request(fix, reads("export function wordCount(text) {\n  return text.split(' ').length;\n}")));
    assert.deepEqual(buggy.toolCalls?.map((c) => `${c.name} ${(c.arguments as { path: string }).path}`), ['edit_file src/word-count.js', 'write_file CHANGELOG.md']);
    const withChangelog = [...reads("  return text.split(' ').length;"), { name: 'list_files', args: { pattern: 'CHANGELOG.md' }, output: 'CHANGELOG.md' }];
    assert.deepEqual(demoReply(request(fix, withChangelog)).toolCalls, [{ name: 'read_file', arguments: { path: 'CHANGELOG.md' } }], 'an existing changelog is read before it is extended');
    const extended = demoReply(request(fix, [...withChangelog, { name: 'read_file', args: { path: 'CHANGELOG.md' }, output: '     1\t# Changes\n     2\t- older entry' }]));
    assert.equal((extended.toolCalls?.at(-1)?.arguments as { content: string }).content, '# Changes\n- older entry\n- `wordCount` counts words across line breaks and repeated spaces, and an empty text has no words.\n');
    const fixed = demoReply(request(fix, reads('export function wordCount(text) {\n  return 0;\n}')));
    assert.equal(fixed.toolCalls, undefined);
    assert.match(fixed.text ?? '', /looks fixed already/);
  });

  it('in plan mode proposes a plan instead of editing, and says why it cannot edit', () => {
    const [, , fix, plan] = DEMO_PROMPTS;
    const read = { name: 'read_file', args: { path: 'src/greet.ts' }, output: '     1\texport function shout(' };
    const proposed = demoReply(request(plan, [read], { tools: PLAN_TOOLS }));
    assert.equal(proposed.toolCalls?.[0]?.name, 'submit_plan');
    assert.match(demoReply(request(plan)).text ?? '', /Turn on plan mode/);
    const refused = demoReply(request(fix, reads(), { tools: PLAN_TOOLS }));
    assert.match(refused.text ?? '', /needs `edit_file`, `write_file`, but plan mode is on/);
    function reads() {
      return [{ name: 'read_file', args: { path: 'src/word-count.js' }, output: "     1\t  return text.split(' ').length;" }];
    }
  });

  it('answers a compaction request with a summary that keeps who it is, whatever words the transcript holds', () => {
    const body = {
      messages: [
        { role: 'system', content: 'You compact a coding session so it can continue with less context. Summarise the conversation below.' },
        { role: 'user', content: 'user: Show how an error and its remedy look.\n\nassistant: ok\n\nuser: Run the tests and summarise what fails.' },
      ],
      tools: [],
    };
    const summary = demoReply(body);
    assert.equal(summary.status, undefined);
    assert.equal(summary.text, 'The assistant is demo-walkthrough, a scripted demo model (a test double). The user asked:\n- Show how an error and its remedy look.\n- Run the tests and summarise what fails.');
    const next = readTurn(request('Explain it', [], { history: [{ role: 'user', content: `Summary of the earlier conversation:\n\n${summary.text}` }, { role: 'assistant', content: 'Understood.' }] }));
    assert.equal(next.introduced, true, 'the summary keeps the introduction');
  });

  it('answers the error prompt with an HTTP 400 context-length error', () => {
    const reply = demoReply(request(DEMO_PROMPTS[5]));
    assert.equal(reply.status, 400);
    assert.match(JSON.stringify(reply.errorBody), /context_length_exceeded/);
  });

  it('reads the TAP summary of a test run', () => {
    assert.deepEqual(tapSummary('not ok 1 - x\nok 2 - y\n# pass 1\n# fail 1'), { pass: 1, fail: 1, failed: ['x'] });
    assert.equal(tapSummary('Error: Cannot find module'), undefined);
  });
});
