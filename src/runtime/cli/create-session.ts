/**
 * Builds the CLI's agent session from the parsed flags and the loaded config: used by the one-shot run (-p), the
 * interactive session and the rpc server alike (kept out of main.ts so those modes do not import the entry point).
 */
import path from 'node:path';
import type { RunHost } from '../agent/host';
import { Session, type SessionOptions } from '../agent/session';
import { buildSystemPrompt, resolvePromptSource } from '../agent/system-prompt';
import type { Config } from '../config/schema';
import { parseModelSelector } from '../providers/create-provider';
import { SavedSessions } from '../sessions/saved-sessions';
import { resumeFromFlags } from '../sessions/resume';
import type { CliOptions } from './args';
import type { CliIo } from './io';

/**
 * The session's system prompt, built once: prompt files read and skills loaded now, so a missing file or an unknown
 * skill is a PromptSetupError at startup rather than a failure of every run.
 */
export function cliSystemPrompt(opts: CliOptions, io: CliIo, batchMode: boolean): string {
  return buildSystemPrompt({
    cwd: io.cwd,
    home: io.home,
    batchMode,
    ...(opts.sysPrompt ? { systemPrompt: resolvePromptSource(opts.sysPrompt, opts.sysPrompt.flag, io.cwd, io.home) } : {}),
    appendSystemPrompt: opts.appendSystemPrompt.map((s) => resolvePromptSource(s, s.flag, io.cwd, io.home)),
    skills: opts.skills,
  });
}

/** Builds the session; with --resume/--continue it continues that saved session (a ResumeError says why it cannot). */
export function createSession(
  opts: CliOptions,
  config: Config,
  host: RunHost,
  io: CliIo,
  batchMode: boolean,
  extra: Pick<SessionOptions, 'files' | 'providerFactory'> = {},
): Session {
  const sel = opts.model !== undefined ? parseModelSelector(opts.model) : undefined;
  const provider = sel?.provider ?? opts.provider;
  const warn = (line: string) => io.stderr(`agentcli: ${line}\n`);
  const session = new Session({
    cwd: io.cwd,
    home: io.home,
    config,
    projectConfigFile: path.join(io.cwd, '.agentcli', 'config.json'),
    host,
    batchMode,
    ...(opts.permissionMode
      ? { permissionMode: opts.permissionMode }
      : opts.yolo
        ? { permissionMode: 'unrestricted' as const }
        : opts.restricted
          ? { permissionMode: 'restricted' as const }
          : {}),
    selection: { ...(provider ? { provider } : {}), ...(sel ? { model: sel.model } : {}) },
    // The whole prompt, already built: the session uses it as is (no file or skill lookups per run).
    systemPrompt: cliSystemPrompt(opts, io, batchMode),
    ...(opts.maxIterations !== undefined ? { maxIterations: opts.maxIterations } : {}),
    ...(opts.loopType !== undefined ? { loopType: opts.loopType } : {}),
    saved: new SavedSessions({ home: io.home, cwd: io.cwd, config, env: io.env, warn }),
    ...extra,
  });
  const note = resumeFromFlags(session, opts);
  if (note) host.notice?.(note);
  return session;
}
