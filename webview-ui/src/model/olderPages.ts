/**
 * Older transcript pages: the panel starts with the newest items of a long chat (the `init` tail) and asks the
 * extension for the page before its first item as the user scrolls up. One request at a time. Pure: no DOM.
 */
export class OlderPages {
  /** Items older than the first loaded one, still in the extension. */
  private remaining = 0;
  /** The first item's id when the request went out. */
  private waitingFor: string | undefined;

  constructor(private readonly ask: (beforeId: string) => void) {}

  /** A fresh list (init): `olderCount` items come before it. */
  reset(olderCount: number): void {
    this.remaining = olderCount;
    this.waitingFor = undefined;
  }

  /** The user is near the top: ask for the page before `firstId`, unless all is loaded or a request is out. */
  request(firstId: string | undefined): void {
    if (this.remaining === 0 || this.waitingFor !== undefined || firstId === undefined) return;
    this.waitingFor = firstId;
    this.ask(firstId);
  }

  /**
   * An answer arrived: true when it is the awaited one and still fits the list (its `beforeId` is the first item);
   * an answer to an older request or to a list that was replaced since (new chat, init) is dropped.
   */
  accept(beforeId: string, olderCount: number, firstId: string | undefined): boolean {
    if (beforeId !== this.waitingFor) return false;
    this.waitingFor = undefined;
    if (beforeId !== firstId) return false;
    this.remaining = olderCount;
    return true;
  }
}
