/**
 * `agentcli skills list | recommend | learn [--user] | generate <name> "<description>" [--user] [--yes]`: the skills
 * `--skill` can enable, the ones this project's signals call for, writing the learned ones, and drafting a new one
 * with the model (see README "Skills and learning").
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AgentEvent } from '../../protocol/events';
import type { SkillScope } from '../../protocol/learning';
import { RuntimeRequestError } from '../agent/errors';
import type { RunHost } from '../agent/host';
import { Session } from '../agent/session';
import { toUnifiedDiff } from '../changes/unified-diff';
import { loadConfig } from '../config/load';
import { checkGenerateRequest, startGenerateSkill } from '../learning/generate-skill';
import { updateLearnedSkills } from '../learning/learned-skills';
import { recommendSkills } from '../learning/recommend';
import { listSkills } from '../learning/skill-dirs';
import { createProvider, parseModelSelector } from '../providers/create-provider';
import { ProviderError } from '../providers/types';
import type { CliIo } from './io';
import { askYesNo } from './ask-yes-no';

export const SKILLS_USAGE = `Usage: agentcli skills list [--json]                 the skills --skill can enable (project, then ~/.agentcli/skills)
       agentcli skills recommend [--json]            skills this project's signals call for, with scores and reasons
       agentcli skills learn [--user] [--json]       write or refresh the learned-* skills (project, or --user)
       agentcli skills generate <name> "<description>" [--user] [--yes] [--model <m>]
                                                     the model drafts <skills dir>/<name>/SKILL.md; shown as a diff,
                                                     written after you answer yes (or with --yes)
Learned skills are named learned-<name>; skills you wrote, and learned ones you edited, are never overwritten.`;

function usage(io: CliIo, problem: string): number {
  io.stderr(`agentcli skills: ${problem}\n\n${SKILLS_USAGE}\n`);
  return 2;
}

const pct = (score: number) => `${Math.round(score * 100)}%`;

async function recommend(io: CliIo, json: boolean): Promise<number> {
  const r = await recommendSkills(io.cwd, io.home);
  if (json) {
    io.stdout(`${JSON.stringify({ recommendations: r.recommendations, filesScanned: r.filesScanned, truncated: r.truncated }, null, 2)}\n`);
    return 0;
  }
  if (r.recommendations.length === 0) io.stdout(`no skill recommended for this project (${r.filesScanned} files looked at)\n`);
  for (const rec of r.recommendations) {
    io.stdout(`${rec.name}  ${pct(rec.score)}  ${rec.title}${rec.installed ? '  (installed)' : ''}\n`);
    for (const reason of rec.reasons) io.stdout(`    - ${reason}\n`);
  }
  if (r.truncated) io.stderr(`agentcli: stopped after ${r.filesScanned} files; the language counts cover those only\n`);
  if (r.recommendations.length > 0) io.stdout('\nWrite them as learned skills with: agentcli skills learn   (or --user for ~/.agentcli/skills)\n');
  return 0;
}

async function learn(io: CliIo, scope: SkillScope, json: boolean): Promise<number> {
  const result = await updateLearnedSkills({
    scope,
    cwd: io.cwd,
    home: io.home,
    progress: (p) => {
      if (!json && p.phase === 'writing' && p.skill) io.stderr(`[${p.done + 1}/${p.total}] ${p.skill}\n`);
    },
  });
  if (json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  for (const w of result.written) io.stdout(`${w.status}: ${w.name} (${w.path})\n`);
  for (const s of result.skipped) io.stdout(`skipped: ${s.name}: ${s.reason}\n`);
  if (result.written.length === 0 && result.skipped.length === 0) io.stdout('no skill recommended for this project: nothing written\n');
  return 0;
}


function progressHost(io: CliIo): RunHost {
  return {
    interactive: false,
    notice: (m) => io.stderr(`agentcli: ${m}\n`),
    emit: (e: AgentEvent) => {
      if (e.type === 'tool_start') {
        const args = e.args as { path?: unknown; pattern?: unknown } | undefined;
        const what = typeof args?.path === 'string' ? args.path : typeof args?.pattern === 'string' ? args.pattern : '';
        io.stderr(`  ● ${e.toolName} ${what}\n`);
      } else if (e.type === 'error' && e.code !== 'tool_error') io.stderr(`  error: ${e.error}${e.remedy ? `\n  remedy: ${e.remedy}` : ''}\n`);
    },
  };
}

async function generate(io: CliIo, name: string, description: string, scope: SkillScope, yes: boolean, model: string | undefined): Promise<number> {
  try {
    checkGenerateRequest({ name, description, scope }, io.cwd, io.home); // before the provider: a bad name is a usage error
  } catch (e) {
    if (e instanceof RuntimeRequestError) return usage(io, e.message.replace(/^invalid params for generateSkill: /, ''));
    throw e;
  }
  let session: Session;
  try {
    const config = loadConfig({ cwd: io.cwd, home: io.home, env: io.env, warn: (l) => io.stderr(`agentcli: ${l}\n`) }).config;
    const sel = model !== undefined ? parseModelSelector(model) : undefined;
    const selection = { ...(sel?.provider ? { provider: sel.provider } : {}), ...(sel ? { model: sel.model } : {}) };
    createProvider(config, selection);
    const projectConfigFile = path.join(io.cwd, '.agentcli', 'config.json');
    session = new Session({ cwd: io.cwd, home: io.home, config, projectConfigFile, host: progressHost(io), batchMode: true, selection });
  } catch (e) {
    io.stderr(`agentcli: ${(e as Error).message}${e instanceof ProviderError ? `\n  remedy: ${e.remedy}` : ''}\n`);
    return 2;
  }
  try {
    let started;
    try {
      started = startGenerateSkill(session, { name, description, scope }, io.home);
    } catch (e) {
      if (e instanceof RuntimeRequestError) return usage(io, e.message.replace(/^invalid params for generateSkill: /, ''));
      throw e;
    }
    io.stderr(`[skills] drafting ${started.path}\n`);
    const outcome = await session.running!.done;
    const batch = session.store.pending();
    const change = batch?.changes.find((c) => c.absolutePath === started.path);
    if (outcome.status !== 'completed' || !batch || !change) {
      if (batch) await session.decideChanges(batch.id, 'reject_all');
      io.stderr(`agentcli: the model did not propose ${started.path}${outcome.error ? ` (${outcome.error.message})` : ''}\n`);
      return 1;
    }
    const patch = toUnifiedDiff(batch);
    io.stdout(patch.endsWith('\n') ? patch : `${patch}\n`);
    const apply = yes || (process.stdin.isTTY === true && (await askYesNo(`Write these ${batch.changes.length} file(s)? [y/N] `)));
    if (!apply) {
      await session.decideChanges(batch.id, 'reject_all');
      io.stderr('agentcli: not written (answer yes, or pass --yes)\n');
      return 1;
    }
    const { results } = await session.decideChanges(batch.id, 'accept_all');
    for (const r of results) io.stderr(`  ${r.status}: ${r.path}${r.error ? ` (${r.error})` : ''}\n`);
    return results.every((r) => r.status === 'applied') ? 0 : 1;
  } finally {
    session.end();
  }
}

export async function runSkillsCommand(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        user: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        yes: { type: 'boolean', short: 'y', default: false },
        model: { type: 'string', short: 'm' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    return usage(io, (e as Error).message);
  }
  const [action, ...rest] = parsed.positionals;
  const v = parsed.values;
  if (v.help || action === 'help') {
    io.stdout(`${SKILLS_USAGE}\n`);
    return 0;
  }
  const scope: SkillScope = v.user ? 'user' : 'project';
  const noExtra = (n: number) => (rest.length > n ? usage(io, `unexpected argument "${rest[n]}" for skills ${action}`) : undefined);
  try {
    switch (action) {
      case 'list': {
        const bad = noExtra(0);
        if (bad !== undefined) return bad;
        const skills = listSkills(io.cwd, io.home);
        if (v.json) io.stdout(`${JSON.stringify({ skills }, null, 2)}\n`);
        else if (skills.length === 0) io.stdout('no skills: add .agentcli/skills/<name>/SKILL.md, or run agentcli skills learn\n');
        else for (const s of skills) io.stdout(`${s.name}  ${s.scope}${s.learned ? ' learned' : ''}  ${s.description}\n    ${s.path}\n`);
        return 0;
      }
      case 'recommend':
        return noExtra(0) ?? (await recommend(io, v.json));
      case 'learn':
        return noExtra(0) ?? (await learn(io, scope, v.json));
      case 'generate': {
        const [name, description] = rest;
        if (name === undefined || description === undefined) return usage(io, 'generate needs a name and a description: agentcli skills generate api-testing "how we test the HTTP API"');
        return noExtra(2) ?? (await generate(io, name, description, scope, v.yes, v.model));
      }
      case undefined:
        return usage(io, 'missing action: list, recommend, learn or generate');
      default:
        return usage(io, `unknown action "${action}": use list, recommend, learn or generate`);
    }
  } catch (e) {
    io.stderr(`agentcli: skills ${action}: ${(e as Error).message}\n`);
    return 1;
  }
}
