import type { Session } from '../../agent/session';
import type { Style } from './ansi';
import type { EventView } from './event-view';
import type { LineInput } from './line-input';

/** What the parts of an interactive session share: the agent session, the keyboard, the screen and its colors. */
export interface InteractiveContext {
  session: Session;
  input: LineInput;
  view: EventView;
  style: Style;
  /** Set while a command waits on the network (e.g. `/model` loading the list); Ctrl-C aborts it. */
  busy?: AbortController;
}
