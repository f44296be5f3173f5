/**
 * The prompt box, defined once for the two places that make it: the panel's HTML, which carries it so the box is on
 * screen and takes typing before the panel's code has loaded (src/extension/chat/webview-html.ts), and the composer,
 * which adopts that box (webview-ui/src/view/composer.ts). No DOM or `vscode` here: both sides import it.
 */

export const PROMPT_BOX_TESTID = 'prompt-input';
export const PROMPT_BOX_CLASS = 'prompt-input';

export const PROMPT_BOX_ATTRS: Readonly<Record<string, string>> = {
  rows: '2',
  placeholder: 'Ask the agent… (@path attaches a file)',
  title: 'Enter sends, Shift+Enter adds a new line',
  'aria-label': 'Prompt',
};

/** The Send button beside the box (the page carries one too, so the box keeps its width when the panel starts). */
export const SEND_BUTTON = { label: 'Send', testid: 'send', class: 'btn primary', title: 'Send (Enter)' } as const;

/**
 * The box's `data-early` attribute while the panel's code loads: `waiting`, or `send` once Enter was pressed in it
 * or the carried Send button was clicked (the page's first script holds the Enter back and records it; the composer
 * sends that prompt when it adopts the box).
 */
export const EARLY_SEND_ATTR = 'data-early';
export type EarlySendState = 'waiting' | 'send';

/** The selector that finds the carried box. */
export const PROMPT_BOX_SELECTOR = `textarea[data-testid="${PROMPT_BOX_TESTID}"]`;
