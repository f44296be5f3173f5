/**
 * `/handoff [minutes]` in the interactive session: a browser handoff of this live session (a page on 127.0.0.1 that
 * continues it, and a token the editor can take it over with: "Continue Latest Terminal Session Here").
 */
import { HandoffController } from '../../handoff/controller';
import type { Session } from '../../agent/session';
import type { InteractiveContext } from './context';
import { showError } from './model-picker';

const controllers = new WeakMap<Session, HandoffController>();

export async function runHandoffCommand(arg: string, ctx: InteractiveContext): Promise<void> {
  const { session, view, style } = ctx;
  const minutes = arg === '' ? 5 : Number(arg);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 60) {
    view.line(`${style.red('✗')} /handoff takes the link's lifetime in whole minutes, 1 to 60 (default 5); got "${arg}"`);
    return;
  }
  let handoff = controllers.get(session);
  if (!handoff) {
    handoff = new HandoffController(session, {
      onReleased: (id) => view.line(`${style.yellow('→')} session ${id} was taken over by another window; this terminal goes on in a new conversation`),
    });
    controllers.set(session, handoff);
  }
  try {
    const h = await handoff.create({ ttlSeconds: minutes * 60 });
    view.line(`${style.green('✓')} open this link in a browser on this machine (single use, until ${new Date(h.expiresAt).toLocaleTimeString()}):`);
    view.line(h.url);
    view.line(style.dim('or continue in the editor: "Continue Latest Terminal Session Here". Keep this terminal open; the link is a password.'));
  } catch (err) {
    showError(ctx, err, 'cannot create a handoff');
  }
}
