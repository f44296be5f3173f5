import type { EventOf } from '../../../protocol';
import type { DirectoryAnswer, PermissionAnswer } from '../../agent/host';
import { choice, choiceMenu, parseChoice, type ChoiceOption } from './answers';
import type { InteractiveContext } from './context';

type PermissionChoice = EventOf<'permission_request'>['choices'][number];

const PERMISSION_OPTIONS: Record<PermissionChoice, ChoiceOption<PermissionChoice>> = {
  once: choice('once', 'once'),
  session: choice('session', 'session'),
  always: choice('always', 'always'),
  deny: choice('deny', 'deny'),
  alternative: choice('alternative', 'alternative', 9),
};

const DIRECTORY_OPTIONS = [choice('once', 'once'), choice('session', 'session'), choice('deny', 'deny')] as const;

/**
 * Puts a permission request to the user: tool, description, the exact command or paths, then the choices the runtime
 * offers. Returns the answer, or null when the question was cancelled (the run was aborted, or input closed).
 */
export async function askPermission(e: EventOf<'permission_request'>, ctx: InteractiveContext): Promise<PermissionAnswer | null> {
  const { style, view } = ctx;
  view.line(`${style.yellow('?')} ${style.bold('Permission needed:')} ${style.bold(e.tool)} — ${e.description}`);
  if (e.command !== undefined) view.line(`  ${style.dim('command:')} ${e.command}`);
  if (e.paths && e.paths.length > 0) view.line(`  ${style.dim(e.paths.length === 1 ? 'path:' : 'paths:')} ${e.paths.join(', ')}`);
  if (e.suggestedRules.length > 0) view.line(`  ${style.dim('session/always would allow:')} ${e.suggestedRules.join(', ')}`);
  const options = e.choices.map((c) => PERMISSION_OPTIONS[c]);
  for (;;) {
    const line = await ctx.input.ask(`  ${choiceMenu(options)} › `);
    if (line === null) return null;
    const picked = parseChoice(line, options);
    if (picked === undefined) {
      view.line(`  ${style.yellow(`"${line.trim()}" is not one of the choices:`)} type ${options.map((o) => o.key).join(', ')} and press Enter`);
      continue;
    }
    if (picked === 'deny') return { allowed: false, scope: 'once' };
    if (picked !== 'alternative') return { allowed: true, scope: picked };
    const alternative = await ctx.input.ask('  what should the agent do instead? › ');
    if (alternative === null) return null;
    if (alternative.trim()) return { allowed: false, scope: 'once', alternative: alternative.trim() };
    view.line(`  ${style.dim('no alternative given; choose again')}`);
  }
}

/** Puts a directory-access request to the user (once / session / deny). Null when cancelled. */
export async function askDirectoryAccess(e: EventOf<'directory_access_request'>, ctx: InteractiveContext): Promise<DirectoryAnswer | null> {
  const { style, view } = ctx;
  view.line(`${style.yellow('?')} ${style.bold('Access outside the workspace:')} ${e.path}`);
  view.line(`  ${style.dim('why:')} ${e.reason}`);
  const options = [...DIRECTORY_OPTIONS];
  for (;;) {
    const line = await ctx.input.ask(`  ${choiceMenu(options)} › `);
    if (line === null) return null;
    const picked = parseChoice(line, options);
    if (picked === undefined) {
      view.line(`  ${style.yellow(`"${line.trim()}" is not one of the choices:`)} type o, s or d and press Enter`);
      continue;
    }
    return picked === 'deny' ? { allowed: false, scope: 'once' } : { allowed: true, scope: picked };
  }
}

/**
 * Serializes the runtime's questions (several tool calls may ask at once) and answers them through the session.
 * A question whose request was cancelled meanwhile (abort) is closed on screen.
 */
export class QuestionQueue {
  private chain: Promise<void> = Promise.resolve();
  private current: string | undefined;

  constructor(private readonly ctx: InteractiveContext) {}

  permission(e: EventOf<'permission_request'>): void {
    this.enqueue(e.requestId, 'permission', () => askPermission(e, this.ctx));
  }

  directory(e: EventOf<'directory_access_request'>): void {
    this.enqueue(e.requestId, 'directory', () => askDirectoryAccess(e, this.ctx));
  }

  /** The runtime settled a request itself (abort): close its question if it is on screen. */
  resolved(requestId: string): void {
    if (this.current === requestId) this.ctx.input.cancel(this.ctx.style.dim('(cancelled)'));
  }

  /** Resolves when every queued question has been answered or cancelled. */
  idle(): Promise<void> {
    return this.chain;
  }

  private enqueue(requestId: string, kind: 'permission' | 'directory', ask: () => Promise<unknown>): void {
    this.chain = this.chain.then(async () => {
      if (!this.ctx.session.pending.has(requestId, kind)) return;
      this.current = requestId;
      try {
        const answer = await ask();
        if (answer !== null) this.ctx.session.pending.answer(requestId, kind, answer);
      } catch (err) {
        this.ctx.view.line(`${this.ctx.style.red('✗')} could not answer the ${kind} request: ${(err as Error).message}`);
      } finally {
        this.current = undefined;
      }
    });
  }
}
