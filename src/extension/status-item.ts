/**
 * A status bar item that tells the window only what changed. VS Code sends each text, tooltip, show and hide of an item
 * to the window, a hide even when the item is hidden, and the panel state (whose change redraws every item) changes at
 * each run's start and end: four messages to the window's busy renderer per change, for items that mostly stay as
 * they are.
 */
import type * as vscode from 'vscode';

type Item = Pick<vscode.StatusBarItem, 'text' | 'tooltip' | 'show' | 'hide' | 'dispose'>;

export class StatusItem implements vscode.Disposable {
  /** What is shown (text and tooltip); undefined while hidden. */
  private shown: string | undefined;

  constructor(private readonly item: Item) {}

  show(text: string, tooltip: string): void {
    const key = `${text}\n${tooltip}`;
    if (key === this.shown) return;
    this.item.text = text;
    this.item.tooltip = tooltip;
    if (this.shown === undefined) this.item.show();
    this.shown = key;
  }

  hide(): void {
    if (this.shown === undefined) return;
    this.shown = undefined;
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
