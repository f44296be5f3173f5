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
