/**
 * The demo walkthrough model (a test double that only `start-vscode.sh --demo-model` and the tests start): it
 * recognises the panel's example prompts and a few more, and plays each flow through the real runtime with real
 * tool calls. It picks the flow from the last user message (or the runtime's instruction for this request) and the
 * step from the tool results that came back. Anything else gets a short help text.
 */
import { EXAMPLE_PROMPTS } from '../../../webview-ui/src/view/welcome';
import type { StubReply } from '../openai-stub';
import { INTRO_MARK, readTurn, type DemoTurn } from './conversation';
import { errorFlow, explainFlow, fixFlow, styleGuideFlow, testFlow } from './file-flows';
import { isPlanStep, isPlanSummary, planFlow, planStepFlow, planSummaryFlow } from './plan-flow';

export const DEMO_MODEL_ID = 'demo-walkthrough';

/** The prompts the demo knows, in the order the walkthrough shows them (the first three are the panel's examples). */
export const DEMO_PROMPTS = [
  ...EXAMPLE_PROMPTS,
  'Plan how to add a farewell function next to greet.',
  'Check the code against the style guide in ../style-guide.',
  'Show how an error and its remedy look.',
] as const;

export type DemoFlow = 'compaction' | 'plan-step' | 'plan-summary' | 'error' | 'style-guide' | 'fix' | 'tests' | 'plan' | 'explain' | 'help';

const FLOW_BY_PROMPT: [DemoFlow, RegExp][] = [
  ['error', /\b(show|demo)\b.*\b(error|remedy)\b/i],
  ['style-guide', /style guide|\.\.\/style-guide/i],
  ['fix', /\bfix\b/i],
  ['tests', /\btests?\b/i],
  ['plan', /\bplan\b|farewell/i],
  ['explain', /\bexplain\b|organi[sz]ed|where to start|overview/i],
];

/** Which flow answers this request. */
export function chooseFlow(turn: DemoTurn): DemoFlow {
  if (turn.compaction) return 'compaction';
  if (isPlanSummary(turn)) return 'plan-summary';
  if (isPlanStep(turn)) return 'plan-step';
  return FLOW_BY_PROMPT.find(([, pattern]) => pattern.test(turn.prompt))?.[0] ?? 'help';
}

const INTRO = `*I am **${DEMO_MODEL_ID}**, a ${INTRO_MARK}: I recognise a few prompts and play them through the real agent, with real tool calls, permissions and change batches. My answers are scripted, not thought.*\n\n`;

function helpText(turn: DemoTurn): string {
  const planMode = turn.offeredTools.includes('submit_plan');
  return [
    'This scripted demo only knows these prompts (send one as it is):',
    '',
    ...DEMO_PROMPTS.map((p) => `- *${p}*`),
    '',
    planMode
      ? 'Plan mode is on: the plan prompt comes back as a plan card.'
      : 'Turn on plan mode (**agentcli: Toggle Plan Mode**) before the plan prompt to get a plan card.',
    'For real answers, choose a real provider with **agentcli: Select Provider…**.',
  ].join('\n');
}

/** A summary for context compaction: what the user asked so far (the transcript's user lines), and who answered. */
function compactionSummary(turn: DemoTurn): string {
  const asked = [...turn.prompt.matchAll(/^user: (.+)$/gm)].map((m) => `- ${m[1]!.trim()}`);
  return [`The assistant is ${DEMO_MODEL_ID}, a ${INTRO_MARK}. The user asked:`, ...(asked.length > 0 ? asked : ['- (nothing yet)'])].join('\n');
}

function flowReply(flow: DemoFlow, turn: DemoTurn): StubReply {
  switch (flow) {
    case 'compaction':
      return { text: compactionSummary(turn) };
    case 'plan-step':
      return planStepFlow(turn);
    case 'plan-summary':
      return planSummaryFlow(turn);
    case 'error':
      return errorFlow();
    case 'style-guide':
      return styleGuideFlow(turn);
    case 'fix':
      return fixFlow(turn);
    case 'tests':
      return testFlow(turn);
    case 'plan':
      return planFlow(turn);
    case 'explain':
      return explainFlow(turn);
    case 'help':
      return { text: helpText(turn) };
  }
}

/** A reply calling a tool the request does not offer (plan mode offers only reading ones) becomes a sentence saying so. */
function notOffered(reply: StubReply, turn: DemoTurn): StubReply {
  const missing = (reply.toolCalls ?? []).map((c) => c.name).filter((name) => !turn.offeredTools.includes(name));
  if (missing.length === 0) return reply;
  const tools = [...new Set(missing)].map((n) => `\`${n}\``).join(', ');
  const why = turn.offeredTools.includes('submit_plan') ? 'plan mode is on and offers only reading tools' : 'the agent does not offer it';
  return { text: `This step needs ${tools}, but ${why}. ${turn.offeredTools.includes('submit_plan') ? 'Turn plan mode off (**agentcli: Toggle Plan Mode**) and ask again.' : ''}`.trim() };
}

/** The reply to one chat-completions request body: the next step of its flow, introduced once per conversation. */
export function demoReply(body: unknown, chunkDelayMs = 12): StubReply {
  const turn = readTurn(body);
  const reply = notOffered(flowReply(chooseFlow(turn), turn), turn);
  if (reply.status !== undefined) return reply;
  // The intro goes with the first text of the conversation (a plan step's result line stays one line).
  const introduce = !turn.introduced && !turn.compaction && !isPlanStep(turn) && (reply.text !== undefined && reply.text !== '');
  return { ...reply, ...(introduce ? { text: INTRO + reply.text! } : {}), chunkDelayMs };
}
