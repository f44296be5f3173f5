/**
 * The demo walkthrough's flows on the demo workspace (test double only): each looks at the tool results of the
 * turn so far and answers with the next tool calls, or with the final markdown built from what the tools returned.
 */
import type { StubReply } from '../openai-stub';
import { alternativeOf, resultOf, wasRefused, type DemoTurn, type ToolOutcome } from './conversation';

/** The sibling folder outside the workspace that the directory-access flow reads (the start script creates it). */
export const STYLE_GUIDE = '../style-guide/STYLE.md';
/** The command the test flow runs (TAP output, so the demo can count the results). */
export const TEST_COMMAND = 'node --test --test-reporter=tap';

const WORD_COUNT = 'src/word-count.js';
const WORD_COUNT_TEST = 'test/word-count.test.js';
const CHANGELOG = 'CHANGELOG.md';
const BUGGY_LINE = "  return text.split(' ').length;";
const FIXED_LINE = '  return text.split(/\\s+/).filter((word) => word !== \'\').length;';
const LAST_TEST = "test('an empty text has no words', () => {\n  assert.equal(wordCount(''), 0);\n});\n";
const ADDED_TEST = "\ntest('ignores repeated spaces', () => {\n  assert.equal(wordCount('one  two'), 2);\n});\n";
const CHANGELOG_ENTRY = '- `wordCount` counts words across line breaks and repeated spaces, and an empty text has no words.\n';

const say = (text: string): StubReply => ({ text });
const call = (text: string, ...toolCalls: { name: string; arguments: Record<string, unknown> }[]): StubReply => ({ text, toolCalls });

/** A read_file result as plain text (its `cat -n` numbering removed); undefined when the read failed. */
export function fileText(outcome: ToolOutcome | undefined): string | undefined {
  if (!outcome || !/^\s*\d+\t/.test(outcome.output)) return outcome?.output.startsWith('(') ? '' : undefined;
  return outcome.output
    .split('\n')
    .filter((line) => /^\s*\d+\t/.test(line))
    .map((line) => line.replace(/^\s*\d+\t/, ''))
    .join('\n')
    .concat('\n');
}

const readOf = (turn: DemoTurn, file: string) => resultOf(turn, 'read_file', (a) => a['path'] === file);

/** "Explain how this project is organized": list, read, search, then an answer made of what they returned. */
export function explainFlow(turn: DemoTurn): StubReply {
  const listing = resultOf(turn, 'list_files');
  if (!listing) return call('Let me look around the workspace first.', { name: 'list_files', arguments: {} });
  const readme = readOf(turn, 'README.md');
  if (!readme) {
    return call('', { name: 'read_file', arguments: { path: 'README.md' } }, { name: 'read_file', arguments: { path: 'package.json' } });
  }
  const exports = resultOf(turn, 'grep');
  if (!exports) return call('', { name: 'grep', arguments: { pattern: '^export (function|const)', path: 'src' } });
  const files = listing.output.split('\n').filter((l) => l !== '' && !l.startsWith('['));
  const byFile = new Map<string, string[]>();
  for (const line of exports.output.split('\n')) {
    const m = /^(.+?):\d+:export (?:function|const) (\w+)/.exec(line);
    if (m) byFile.set(m[1]!, [...(byFile.get(m[1]!) ?? []), m[2]!]);
  }
  const title = fileText(readme)?.split('\n').find((l) => l.startsWith('# '))?.slice(2) ?? 'this workspace';
  const testScript = /"test":\s*"([^"]+)"/.exec(fileText(readOf(turn, 'package.json')) ?? '')?.[1];
  const entries = files.filter((f) => f.startsWith('src/') && /\.[jt]s$/.test(f) && !byFile.has(f));
  const folders = [...new Set(files.map((f) => (f.includes('/') ? `${f.split('/')[0]}/` : f)))];
  const lines = [
    `## How ${title} is organized`,
    '',
    `I listed ${files.length} files, read \`README.md\` and \`package.json\`, and searched \`src/\` for exports.`,
    '',
    ...folders.map((f) => `- \`${f}\`${f.endsWith('/') ? `: ${files.filter((x) => x.startsWith(f)).length} file(s)` : ''}`),
    '',
    '### What the modules export',
    '',
    ...[...byFile].map(([file, names]) => `- \`${file}\`: ${names.map((n) => `\`${n}\``).join(', ')}`),
    '',
    '### Where to start reading',
    '',
    ...['`README.md`, for what the project is', ...entries.map((f) => `\`${f}\` (no exports: where the program starts)`), ...[...byFile.keys()].map((f) => `\`${f}\``)].map(
      (line, i) => `${i + 1}. ${line}`,
    ),
    ...(testScript ? ['', `The tests run with \`${testScript}\` (try: *Run the tests and summarise what fails.*).`] : []),
  ];
  return say(lines.join('\n'));
}

/** The TAP summary of a test run: counts and the names of failed tests. */
export function tapSummary(output: string): { pass: number; fail: number; failed: string[] } | undefined {
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(output)?.[1]);
  const pass = count('pass');
  const fail = count('fail');
  if (Number.isNaN(pass) || Number.isNaN(fail)) return undefined;
  const failed = [...output.matchAll(/^not ok \d+ - (.+)$/gm)].map((m) => m[1]!.trim());
  return { pass, fail, failed };
}

/** "Run the tests": one command that asks permission; the answer follows what happened to it. */
export function testFlow(turn: DemoTurn): StubReply {
  const run = resultOf(turn, 'run_command');
  if (!run) return call('I will run the tests; the editor asks you first.', { name: 'run_command', arguments: { command: TEST_COMMAND } });
  if (wasRefused(run)) {
    const instead = alternativeOf(run);
    return say(
      instead
        ? `You denied running the tests and asked for this instead: *${instead}*. This scripted demo cannot follow free-form requests, so I stop here.`
        : 'You denied running the tests, so I did not run them and cannot say what fails. Ask again and choose **Allow once** to see the run.',
    );
  }
  const summary = tapSummary(run.output);
  if (!summary) return say(`The test command ran, but its output has no TAP summary I can read:\n\n\`\`\`\n${run.output.slice(-600)}\n\`\`\``);
  if (summary.fail === 0) return say(`All ${summary.pass} tests pass.`);
  return say(
    [
      `**${summary.fail} of ${summary.pass + summary.fail} tests fail:**`,
      '',
      ...summary.failed.map((name) => `- ${name}`),
      '',
      `They test \`wordCount\` in \`${WORD_COUNT}\`, which splits on single spaces only. Try: *Fix the failing tests and note the fix in the changelog.*`,
    ].join('\n'),
  );
}

/** "Fix the failing tests": read, then one batch of edits to three files, then say what waits for review. */
export function fixFlow(turn: DemoTurn): StubReply {
  const source = readOf(turn, WORD_COUNT);
  if (!source) {
    return call(
      'Reading the code and its tests, and looking for a changelog.',
      { name: 'read_file', arguments: { path: WORD_COUNT } },
      { name: 'read_file', arguments: { path: WORD_COUNT_TEST } },
      { name: 'list_files', arguments: { pattern: CHANGELOG } },
    );
  }
  const hasChangelog = resultOf(turn, 'list_files')?.output.split('\n').includes(CHANGELOG) === true;
  if (hasChangelog && !readOf(turn, CHANGELOG)) return call('', { name: 'read_file', arguments: { path: CHANGELOG } });
  const writes = turn.results.filter((r) => r.name === 'edit_file' || r.name === 'write_file');
  if (writes.length > 0) return say(batchSummary(writes));
  const code = fileText(source);
  if (code === undefined) return say(`I could not read \`${WORD_COUNT}\`: ${source.output}`);
  if (!code.includes(BUGGY_LINE)) return say(`\`${WORD_COUNT}\` no longer splits on single spaces: it looks fixed already, so I propose nothing.`);
  const edits: { name: string; arguments: Record<string, unknown> }[] = [{ name: 'edit_file', arguments: { path: WORD_COUNT, old_text: BUGGY_LINE, new_text: FIXED_LINE } }];
  if (fileText(readOf(turn, WORD_COUNT_TEST))?.includes(LAST_TEST)) {
    edits.push({ name: 'edit_file', arguments: { path: WORD_COUNT_TEST, old_text: LAST_TEST, new_text: LAST_TEST + ADDED_TEST } });
  }
  const changelog = hasChangelog ? fileText(readOf(turn, CHANGELOG)) : undefined;
  edits.push(
    changelog === undefined
      ? { name: 'write_file', arguments: { path: CHANGELOG, content: `# Changelog\n\n## Unreleased\n\n${CHANGELOG_ENTRY}` } }
      : { name: 'write_file', arguments: { path: CHANGELOG, content: `${changelog.trimEnd()}\n${CHANGELOG_ENTRY}` } },
  );
  return call(`\`wordCount\` splits on single spaces, so a line break joins two words and an empty text counts one. Proposing the fix, a test for repeated spaces and a changelog entry.`, ...edits);
}

function batchSummary(writes: ToolOutcome[]): string {
  const ok = writes.filter((w) => /(Proposed|Written to disk)/.test(w.output));
  const failed = writes.filter((w) => !ok.includes(w));
  const proposed = ok.some((w) => w.output.includes('Proposed'));
  return [
    `I ${proposed ? 'proposed' : 'made'} changes to ${ok.length} file(s):`,
    '',
    ...ok.map((w) => `- \`${String(w.args['path'])}\``),
    ...(failed.length > 0 ? ['', 'These did not work:', ...failed.map((w) => `- \`${String(w.args['path'])}\`: ${w.output.split('\n')[0]}`)] : []),
    '',
    proposed
      ? 'Nothing is on disk yet: **Review** opens the batch in the diff editor, **Accept all** writes it. Then run the tests again.'
      : 'They are on disk.',
  ].join('\n');
}

/** "Check against the style guide": a read outside the workspace, so the editor asks for the folder first. */
export function styleGuideFlow(turn: DemoTurn): StubReply {
  const guide = resultOf(turn, 'read_file', (a) => a['path'] === STYLE_GUIDE);
  if (!guide) return call('The style guide is in a folder next to this workspace; the editor asks you for access.', { name: 'read_file', arguments: { path: STYLE_GUIDE } });
  if (wasRefused(guide)) return say('You denied access to the folder with the style guide, so I stayed inside the workspace and did not read it.');
  const rules = fileText(guide)?.split('\n').filter((l) => l.startsWith('- '));
  if (!rules) return say(`I could not read the style guide: ${guide.output.split('\n')[0]}`);
  const exports = resultOf(turn, 'grep');
  if (!exports) return call('', { name: 'grep', arguments: { pattern: '^export function', path: 'src' } });
  const names = [...exports.output.matchAll(/^(.+?):\d+:export function (\w+)/gm)].map((m) => `\`${m[2]}\` (${m[1]})`);
  return say(
    [
      `The style guide (\`${STYLE_GUIDE}\`) has ${rules.length} rules:`,
      '',
      ...rules,
      '',
      `The exported functions in \`src/\`: ${names.join(', ') || 'none'}.`,
      '',
      'Judging each one against the rules is where a real model would go on; this scripted demo stops after showing the folder access.',
    ].join('\n'),
  );
}

/** "Show an error": the demo answers with the HTTP error a server sends for a prompt too long for its context. */
export function errorFlow(): StubReply {
  return {
    status: 400,
    errorBody: {
      error: {
        message:
          "This model's maximum context length is 32768 tokens, but the request has 40960 tokens (scripted by the demo model: no real limit was hit).",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    },
  };
}
