/**
 * `agentcli decide --kind <noul|choice|score> [--option <text>]... [--scale <min>-<max>] [--context <text>] [--json] "<question>"`:
 * asks the hosted decisions model a typed question and prints the answer with the probability of every answer.
 */
import { parseArgs } from 'node:util';
import { DecisionKind, type DecideParams } from '../../protocol';
import { loadConfig } from '../config/load';
import { InvalidDecisionRequest, requestDecision } from '../decisions/client';
import { formatDecision } from '../decisions/format';
import { ProviderError } from '../providers/types';
import type { CliIo } from './io';
import { UsageError } from './usage-error';
import { ConfigError } from '../config/errors';

export type DecideCommandIo = CliIo;

export const DECIDE_USAGE = `Usage: agentcli decide --kind <noul|choice|score> [options] "<question>"

Asks the hosted decisions model (serviceai, model weka) a typed question; prints the answer and the
probability of every possible answer.

  --kind noul                 a yes/no question
  --kind choice --option A --option B ...   pick one of 2 to 20 options
  --kind score [--scale 1-10] an integer on a scale (default 1-5)
  --context <text>            background for the question (a summary, a changelog)
  --json                      print {kind, model, answer, probabilities} as JSON
  --bare                      ignore ~/.agentcli/config.json; key from SERVICE_API_KEY

Needs serviceai.baseUrl (SERVICE_BASE_URL) and serviceai.apiKey (SERVICE_API_KEY).`;


function parseScale(text: string): { min: number; max: number } {
  const match = /^\s*(-?\d+)\s*(?:-|\.\.|:)\s*(-?\d+)\s*$/.exec(text);
  if (!match) throw new UsageError(`--scale must look like 1-10 (got "${text}")`);
  return { min: Number(match[1]), max: Number(match[2]) };
}

function parse(argv: string[]): { params: DecideParams; json: boolean; bare: boolean } | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        kind: { type: 'string' },
        option: { type: 'string', multiple: true, default: [] },
        scale: { type: 'string' },
        context: { type: 'string' },
        json: { type: 'boolean', default: false },
        bare: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const kind = DecisionKind.safeParse(v.kind);
  if (!kind.success) throw new UsageError(`--kind must be one of ${DecisionKind.options.join(', ')} (got ${v.kind === undefined ? 'nothing' : `"${v.kind}"`})`);
  const question = parsed.positionals.join(' ').trim();
  if (question === '') throw new UsageError('give the question as the last argument, e.g. agentcli decide --kind noul "Ship it?"');
  const params: DecideParams = {
    kind: kind.data,
    question,
    ...(v.option.length > 0 ? { options: v.option } : {}),
    ...(v.scale !== undefined ? { scale: parseScale(v.scale) } : {}),
    ...(v.context !== undefined ? { context: v.context } : {}),
  };
  return { params, json: v.json, bare: v.bare };
}

export async function runDecideCommand(argv: string[], io: DecideCommandIo): Promise<number> {
  let request;
  try {
    request = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`agentcli decide: ${e.message}\n\n${DECIDE_USAGE}\n`);
    return 2;
  }
  if (request === 'help') {
    io.stdout(`${DECIDE_USAGE}\n`);
    return 0;
  }
  try {
    const { config } = loadConfig({ cwd: io.cwd, home: io.home, env: io.env, bare: request.bare });
    const result = await requestDecision(config, request.params);
    io.stdout(request.json ? `${JSON.stringify(result)}\n` : `${formatDecision(result)}\n`);
    return 0;
  } catch (e) {
    if (e instanceof InvalidDecisionRequest) {
      io.stderr(`agentcli decide: ${e.message}\n`);
      return 2;
    }
    if (e instanceof ProviderError) {
      io.stderr(`agentcli decide: ${e.message}\n  remedy: ${e.remedy}\n`);
      return e.code === 'config_error' ? 2 : 1;
    }
    if (e instanceof ConfigError) {
      io.stderr(`agentcli decide: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
