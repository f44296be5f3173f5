/** What a session keeps for undo (protocol/undo.ts). No imports: the panel shows these numbers, and loads only this. */

/** Most applied batches one session keeps for undo (the oldest go first). */
export const MAX_UNDO_BATCHES = 10;
/** Largest file side (before or after, UTF-8) kept for undo. */
export const MAX_UNDO_FILE_BYTES = 2 * 1024 * 1024;
/** Most bytes of contents one batch keeps for undo; files past it are not undoable. */
export const MAX_UNDO_BATCH_BYTES = 16 * 1024 * 1024;
/** Most bytes of contents a session keeps for undo in all; the oldest batches go first (the newest always stays). */
export const MAX_UNDO_SESSION_BYTES = 32 * 1024 * 1024;
