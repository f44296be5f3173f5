/**
 * picomatch, loaded on first use: evaluating it costs a few milliseconds, and a start that matches no glob (no
 * permission rule, hook matcher or listing pattern yet) never needs it.
 */
import type picomatchType from 'picomatch';

let loaded: typeof picomatchType | undefined;

export function picomatch(): typeof picomatchType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose (see above)
  loaded ??= require('picomatch') as typeof picomatchType;
  return loaded;
}
