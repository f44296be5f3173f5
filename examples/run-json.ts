/**
 * Structured output: ask for JSON matching a zod schema and get a typed, validated value.
 *   npm run build && npx tsx examples/run-json.ts [workspace-dir]
 */
import { z } from 'zod';
import { Agent, StructuredOutputError } from '../src/sdk';

const Summary = z.object({
  language: z.string(),
  files: z.number().int().nonnegative(),
  risks: z.array(z.object({ path: z.string(), why: z.string() })),
});

async function main(): Promise<void> {
  const cwd = process.argv[2] ?? process.cwd();
  const agent = await Agent.create({ cwd, permissionMode: 'restricted' });
  try {
    // `repair: true` allows one follow-up prompt when the first answer does not match the schema.
    const summary = await agent.runJson('Summarise this project.', { schemaName: 'summary', schema: Summary, repair: true });
    console.log(`${summary.language}, ${summary.files} files`);
    for (const risk of summary.risks) console.log(`- ${risk.path}: ${risk.why}`);
  } catch (e) {
    if (e instanceof StructuredOutputError) {
      console.error(`${e.message}\nraw answer:\n${e.raw}`);
      process.exitCode = 1;
      return;
    }
    throw e;
  } finally {
    await agent.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
