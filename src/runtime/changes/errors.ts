/** A change whose contents are too large for one protocol message (the host's line limit). */
export class ContentsTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContentsTooLargeError';
  }
}

/** A change batch id or change id that the store does not know (wrong id from the host). */
export class UnknownIdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownIdError';
  }
}

/** A decision's per-hunk selection that does not fit the batch (unknown change, out-of-range hunk, whole-file change). */
export class HunkSelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HunkSelectionError';
  }
}
