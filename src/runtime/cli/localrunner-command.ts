/**
 * `agentcli localrunner status` (server reachable? installed and running models, GPU use) and
 * `agentcli localrunner unload [model]` (free the model's memory now: keep_alive 0).
 */
import { loadConfig } from '../config/load';
import { createLocalRunnerProvider } from '../providers/builders/localrunner';
import { ProviderError } from '../providers/types';
import type { CliIo } from './io';

export type LocalRunnerCommandIo = CliIo;

export const LOCALRUNNER_USAGE = `Usage: agentcli localrunner <status|unload> [model]

  status           check the local runner (localrunner.baseUrl / LOCALRUNNER_HOST): installed and running models
  unload [model]   unload a model from memory now (default: localrunner.model)`;

export async function runLocalRunnerCommand(argv: string[], io: LocalRunnerCommandIo): Promise<number> {
  const [action, model, ...extra] = argv;
  if (argv.some((a) => a === '--help' || a === '-h') || action === 'help') {
    io.stdout(`${LOCALRUNNER_USAGE}\n`);
    return 0;
  }
  if ((action !== 'status' && action !== 'unload') || extra.length > 0 || (action === 'status' && model !== undefined)) {
    io.stderr(`agentcli localrunner: expected "status" or "unload [model]" (got "${argv.join(' ')}")\n\n${LOCALRUNNER_USAGE}\n`);
    return 2;
  }
  let provider;
  try {
    const { config } = loadConfig({ cwd: io.cwd, home: io.home, env: io.env });
    provider = createLocalRunnerProvider(config.localrunner, undefined);
  } catch (e) {
    io.stderr(`agentcli localrunner: ${(e as Error).message}\n`);
    return 2;
  }
  if (action === 'status') {
    const report = await provider.checkHealth();
    (report.ok ? io.stdout : io.stderr)(`${report.message}\n${report.remedy ? `  remedy: ${report.remedy}\n` : ''}`);
    return report.ok ? 0 : 1;
  }
  const target = model ?? provider.model;
  try {
    await provider.unload(target);
    io.stdout(`unloaded ${target}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    io.stderr(`agentcli localrunner: ${e.message}\n  remedy: ${e.remedy}\n`);
    return 1;
  }
}
