/**
 * The demo walkthrough model server (a test double; never imported by src/): the scripted OpenAI-compatible stub
 * answering every chat request with the walkthrough's next step (test/stubs/demo-model/walkthrough.ts), and listing
 * one model, `demo-walkthrough`.
 *
 * Library use:  const demo = await startDemoModel();   (demo.origin is the ggufserver base URL)
 * Process use:  node --import tsx test/stubs/demo-model.ts [--port N]   (prints `listening <base url>`)
 */
import { startOpenAIStub, type OpenAIStub } from './openai-stub';
import { DEMO_MODEL_ID, demoReply } from './demo-model/walkthrough';

export async function startDemoModel(opts: { port?: number; chunkDelayMs?: number } = {}): Promise<OpenAIStub> {
  const stub = await startOpenAIStub({
    fallback: (req) => demoReply(req.body, opts.chunkDelayMs),
    ...(opts.port === undefined ? {} : { port: opts.port }),
  });
  stub.setModels([DEMO_MODEL_ID]);
  return stub;
}

async function main(argv: string[]): Promise<void> {
  let port = 0;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port' && argv[i + 1] !== undefined) port = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i] ?? ''}; usage: demo-model.ts [--port N]`);
  }
  const stub = await startDemoModel({ port });
  process.stdout.write(`listening ${stub.url}\n`);
  const stop = () => void stub.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`demo-model: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
