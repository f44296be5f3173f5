/** What an empty transcript shows: what the agent does, the model in use, example prompts and input hints. */
import type { PanelState } from '../../../src/shared/chat/messages';
import { button, h } from './dom';

/** Each shows one kind of work: reading files, a command that asks first, a change batch to review. */
export const EXAMPLE_PROMPTS = [
  'Explain how this project is organized and where to start reading.',
  'Run the tests and summarise what fails.',
  'Fix the failing tests and note the fix in the changelog.',
] as const;

export class Welcome {
  readonly root: HTMLElement;
  private readonly model = h('span', { class: 'welcome-model', testid: 'welcome-model', text: '…' });

  /** `fill` puts an example in the prompt box (not sent: the user can edit it first). */
  constructor(fill: (text: string) => void) {
    this.root = h('div', { class: 'welcome', testid: 'welcome' },
      h('div', { class: 'welcome-title', text: 'Ask the agent to work on this workspace' }),
      h('p', { class: 'welcome-text', text: 'It reads files, runs commands and proposes changes; it asks you before anything that needs permission.' }),
      h('p', { class: 'welcome-text' }, 'Model: ', this.model),
      h('div', { class: 'welcome-label', text: 'Try:' }),
      h('ul', { class: 'welcome-examples' }, ...EXAMPLE_PROMPTS.map((text) =>
        h('li', {}, button(text, 'welcome-example', () => fill(text), { class: 'link-button welcome-example', title: 'Put this prompt in the box (edit it, then press Enter)' })),
      )),
      h('ul', { class: 'welcome-hints' },
        h('li', {}, h('code', { text: '@path' }), ' attaches a file, e.g. ', h('code', { text: '@src/main.ts' })),
        h('li', {}, h('kbd', { text: 'Enter' }), ' sends, ', h('kbd', { text: 'Shift+Enter' }), ' adds a new line'),
      ),
    );
  }

  setState(state: PanelState): void {
    this.model.textContent = `${state.provider} · ${state.model}`;
  }

  setVisible(visible: boolean): void {
    this.root.hidden = !visible;
  }
}
