/**
 * Step control: review the run after each tool step and stop it early, then continue on the same agent.
 *   npm run build && npx tsx examples/stop-when.ts [workspace-dir]
 */
import { Agent, hasToolCall, isStepCount, type StopCondition } from '../src/sdk';

/** Stop as soon as a step had a failing tool. */
const onFailure: StopCondition = ({ steps }) => steps.at(-1)?.toolResults.some((r) => !r.success) ?? false;

async function main(): Promise<void> {
  const cwd = process.argv[2] ?? process.cwd();
  const agent = await Agent.create({ cwd, permissionMode: 'restricted' });
  try {
    const first = await agent.run('Explore the project and find where errors are handled.', {
      stopWhen: [isStepCount(3), hasToolCall('run_command'), onFailure],
    });
    console.log(`first run: ${first.status}${first.stoppedReason ? ` (${first.stoppedReason})` : ''} after ${first.steps.length} step(s)`);
    if (first.status === 'stopped') {
      // The conversation, including the tool results so far, is kept: continuing is just another run.
      const rest = await agent.run('Continue, and summarise what you found.');
      console.log(`second run: ${rest.status}\n${rest.text}`);
    } else {
      console.log(first.text);
    }
  } finally {
    await agent.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
