/**
 * Run one prompt to completion and print the answer and the tool steps.
 *   npm run build && npx tsx examples/run.ts [workspace-dir] ["prompt"]
 * The runtime reads its provider settings from the workspace's .agentcli/config.json and the environment
 * (SERVICE_PROVIDER, SERVICE_MODEL, SERVICE_API_KEY...). In an installed package, import from 'agentcli/sdk'.
 */
import { Agent } from '../src/sdk';

async function main(): Promise<void> {
  const cwd = process.argv[2] ?? process.cwd();
  const prompt = process.argv[3] ?? 'List the files in this folder and say what the project is.';
  const agent = await Agent.create({ cwd, permissionMode: 'restricted' });
  try {
    const result = await agent.run(prompt);
    for (const step of result.steps) {
      const calls = step.toolCalls.map((c) => `${c.tool}(${JSON.stringify(c.args)})`).join(', ');
      const ok = step.toolResults.every((r) => r.success) ? 'ok' : 'failed';
      console.log(`step ${step.stepNumber}: ${calls} -> ${ok}`);
    }
    console.log(`[${result.status}] ${result.text}`);
  } finally {
    await agent.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
