/**
 * Stream a run's events: text as it arrives, tools as they run, permission prompts answered inline.
 *   npm run build && npx tsx examples/stream.ts [workspace-dir] ["prompt"]
 */
import { Agent } from '../src/sdk';

async function main(): Promise<void> {
  const cwd = process.argv[2] ?? process.cwd();
  const prompt = process.argv[3] ?? 'Run the tests and summarise the failures.';
  const agent = await Agent.create({
    cwd,
    permissionMode: 'interactive',
    // Allow read-only commands once; deny everything else and suggest reading instead.
    onPermissionRequest: (request) =>
      request.tool === 'run_command' && /^(ls|cat|npm test)\b/.test(request.command ?? '')
        ? { allow: true, scope: 'once' }
        : { allow: false, alternative: 'read the files instead of changing or running anything' },
  });
  try {
    const run = agent.send(prompt);
    for await (const event of run.stream()) {
      switch (event.type) {
        case 'message_update':
          process.stdout.write(event.delta);
          break;
        case 'tool_start':
          console.log(`\n> ${event.toolName} ${JSON.stringify(event.args)}`);
          break;
        case 'tool_end':
          console.log(`< ${event.toolName} ${event.success ? 'ok' : `failed: ${event.error ?? ''}`} (${event.durationMs} ms)`);
          break;
        case 'error':
          console.error(`\n! ${event.code}: ${event.error}${event.remedy ? ` (${event.remedy})` : ''}`);
          break;
        case 'agent_end':
          console.log(`\n[${event.status}]`);
          break;
        default:
          break;
      }
    }
  } finally {
    await agent.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
