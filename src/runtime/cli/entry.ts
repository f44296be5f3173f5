// The `agentcli` executable. `--version` is answered before anything else loads, so it starts as fast as Node itself.
import { RUNTIME_VERSION } from '../version';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`agentcli ${RUNTIME_VERSION}\n`);
} else {
  import('./main')
    .then((m) => m.main(argv))
    .then((code) => {
      process.exitCode = code;
    })
    .catch((e: unknown) => {
      process.stderr.write(`agentcli: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
