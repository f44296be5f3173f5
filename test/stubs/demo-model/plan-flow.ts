/**
 * The demo walkthrough's plan (test double only): in plan mode it investigates and proposes a two-step plan with
 * `submit_plan`; once accepted, the runtime sends each step as its own prompt and the demo carries it out with edits
 * that join one change batch; outside plan mode it shows the plan as text and says how to get the card.
 */
import type { StubReply } from '../openai-stub';
import { resultOf, type DemoTurn } from './conversation';
import { fileText } from './file-flows';

const GREET = 'src/greet.ts';
const MAIN = 'src/main.ts';
const SHOUT = 'export function shout(';
const FAREWELL = 'export function farewell(name: string): string {\n  return `Goodbye, ${name}!`;\n}\n\n';
const MAIN_IMPORT = "import { greet, shout } from './greet';";
const MAIN_LINE = "console.log(shout(greet('agentcli')));";

const STEPS = [
  { title: `Add farewell(name) to ${GREET}`, detail: 'next to greet; it returns "Goodbye, <name>!"' },
  { title: `Print the farewell in ${MAIN}`, detail: 'import farewell and log it after the greeting' },
];

/** Matches the message the runtime sends for one step of an accepted plan. */
const STEP_MESSAGE = /^The plan \(step (\d+) of \d+ runs now\):[\s\S]*\nDo step \d+ only: (.+)/;

export function isPlanStep(turn: DemoTurn): boolean {
  return STEP_MESSAGE.test(turn.prompt);
}

export function isPlanSummary(turn: DemoTurn): boolean {
  return turn.instruction.startsWith('All plan steps have run.');
}

/** "Plan how to add a farewell function": a plan card in plan mode, else the plan as text. */
export function planFlow(turn: DemoTurn): StubReply {
  if (!turn.offeredTools.includes('submit_plan')) {
    return {
      text: [
        'Here is how I would add a farewell function:',
        '',
        ...STEPS.map((s, i) => `${i + 1}. **${s.title}**: ${s.detail}`),
        '',
        'Turn on plan mode (**agentcli: Toggle Plan Mode**) and send this again: the plan then comes as a card you can accept or revise, and I carry it out step by step.',
      ].join('\n'),
    };
  }
  if (!resultOf(turn, 'read_file')) return { text: 'Plan mode: I only read before proposing.', toolCalls: [{ name: 'read_file', arguments: { path: GREET } }] };
  return { toolCalls: [{ name: 'submit_plan', arguments: { steps: STEPS } }] };
}

/** One step of the accepted plan: read the file, edit it, answer with a one-line result. */
export function planStepFlow(turn: DemoTurn): StubReply {
  const [, number, title = ''] = STEP_MESSAGE.exec(turn.prompt) ?? [];
  const file = title.includes(GREET) ? GREET : title.includes(MAIN) ? MAIN : undefined;
  if (!file) return { text: `STEP FAILED: the scripted demo only knows the steps of its own farewell plan, not "${title}".` };
  const read = resultOf(turn, 'read_file', (a) => a['path'] === file);
  if (!read) return { toolCalls: [{ name: 'read_file', arguments: { path: file } }] };
  const edits = turn.results.filter((r) => r.name === 'edit_file');
  if (edits.length > 0) {
    const failed = edits.find((e) => !/Proposed|Written to disk/.test(e.output));
    return { text: failed ? `STEP FAILED: ${failed.output.split('\n')[0]}` : `Step ${number}: edited ${file}.` };
  }
  const content = fileText(read) ?? '';
  if (file === GREET) {
    if (content.includes('function farewell')) return { text: `Step ${number}: ${GREET} already has farewell; nothing to do.` };
    if (!content.includes(SHOUT)) return { text: `STEP FAILED: ${GREET} has no shout function to put farewell before.` };
    return { toolCalls: [{ name: 'edit_file', arguments: { path: GREET, old_text: SHOUT, new_text: FAREWELL + SHOUT } }] };
  }
  if (content.includes('farewell(')) return { text: `Step ${number}: ${MAIN} already prints the farewell; nothing to do.` };
  if (!content.includes(MAIN_IMPORT) || !content.includes(MAIN_LINE)) return { text: `STEP FAILED: ${MAIN} does not look as the demo expects.` };
  return {
    toolCalls: [
      { name: 'edit_file', arguments: { path: MAIN, old_text: MAIN_IMPORT, new_text: "import { farewell, greet, shout } from './greet';" } },
      { name: 'edit_file', arguments: { path: MAIN, old_text: MAIN_LINE, new_text: `${MAIN_LINE}\nconsole.log(farewell('agentcli'));` } },
    ],
  };
}

/** The summary the runtime asks for after the last step. */
export function planSummaryFlow(turn: DemoTurn): StubReply {
  // renderPlan's lines: "1. [done] Title"
  const outcomes = [...turn.instruction.matchAll(/^\d+\. \[(\w+)\] (.+)$/gm)].map((m) => `${m[2]!}: ${m[1]!}`);
  return {
    text: [
      'The plan has run:',
      '',
      ...(outcomes.length > 0 ? outcomes.map((o) => `- ${o}`) : ['- (the runtime sent no step outcomes)']),
      '',
      'The edits wait in the change batch below: **Review** shows them as diffs, **Accept all** writes them.',
    ].join('\n'),
  };
}
