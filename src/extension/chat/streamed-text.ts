/**
 * Streamed text (an answer's pieces, a command's output) reaches the panel in fewer posts. A post is a trip through
 * every process between the extension host and the panel's frame, and the window's renderer relays each one on the
 * thread that also draws the workbench: an answer streamed at 50 pieces a second was 50 posts a second, each also
 * compressed and sent by the extension host.
 *
 * A piece is posted at once while no piece is on its way to the panel. Pieces of the same stream that come meanwhile
 * wait, joined into one, and go when the pieces on their way have arrived, or at once ahead of any other message (so
 * the panel gets everything in order). The first piece of an answer is never held, and the panel draws at most once a
 * frame anyway. Every other message is posted at once, as before.
 */
import type { AgentEvent } from '../../protocol/events';
import type { ToWebviewInput } from '../../shared/chat/messages';

type Piece = Extract<AgentEvent, { type: 'message_update' | 'tool_update' }>;

/** Pieces on their way not acknowledged by then no longer hold the next (posts stay in order either way). */
const STALL_MS = 100;
/** Joined text is posted once it is this long, whatever is on its way. */
const MAX_JOINED_CHARS = 64 * 1024;

function pieceOf(message: ToWebviewInput): Piece | undefined {
  if (message.type !== 'event') return undefined;
  const e = message.event;
  return e.type === 'message_update' || e.type === 'tool_update' ? e : undefined;
}

const textOf = (p: Piece) => (p.type === 'message_update' ? p.delta : p.output);

/** The same stream: the same message's text, or the same tool call's output, in the same turn. */
function sameStream(a: Piece, b: Piece): boolean {
  if (a.sessionId !== b.sessionId || a.runId !== b.runId || a.turnId !== b.turnId) return false;
  if (a.type === 'message_update' && b.type === 'message_update') return a.messageId === b.messageId;
  return a.type === 'tool_update' && b.type === 'tool_update' && a.toolCallId === b.toolCallId;
}

const joined = (a: Piece, b: Piece): Piece => (a.type === 'message_update' ? { ...a, delta: a.delta + textOf(b) } : { ...a, output: a.output + textOf(b) });

export class StreamedText {
  private held: Piece | undefined;
  private piecesOnTheWay = 0;
  private stall: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  /** `send` posts one message and settles when the panel's side has taken it (VS Code's webview.postMessage). */
  constructor(
    private readonly send: (message: ToWebviewInput) => PromiseLike<unknown>,
    private readonly stallMs = STALL_MS,
  ) {}

  post(message: ToWebviewInput): void {
    if (this.disposed) return;
    const piece = pieceOf(message);
    if (piece === undefined) {
      this.release();
      this.deliver(message);
      return;
    }
    if (this.held !== undefined && sameStream(this.held, piece) && textOf(this.held).length < MAX_JOINED_CHARS) {
      this.held = joined(this.held, piece);
      return;
    }
    this.release();
    if (this.piecesOnTheWay === 0) {
      this.sendPiece(piece);
      return;
    }
    this.held = piece;
    this.stall ??= setTimeout(() => this.release(), this.stallMs);
  }

  /** What waits is dropped (the panel it was for is gone). */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.stall);
    this.held = undefined;
  }

  /** Posts the held pieces now. */
  private release(): void {
    clearTimeout(this.stall);
    this.stall = undefined;
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    this.sendPiece(held);
  }

  private sendPiece(piece: Piece): void {
    this.piecesOnTheWay++;
    let settled = false;
    this.deliver({ type: 'event', event: piece }, () => {
      if (settled) return;
      settled = true;
      this.piecesOnTheWay--;
      if (this.piecesOnTheWay === 0 && !this.disposed) this.release();
    });
  }

  private deliver(message: ToWebviewInput, arrived: () => void = () => undefined): void {
    try {
      this.send(message).then(arrived, arrived);
    } catch {
      arrived();
    }
  }
}
