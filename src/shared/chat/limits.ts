/** Limits of the panel's messages, in a module without schemas: the extension's activation imports them without zod. */

/** At most this many `@` file suggestions in one `fileMatches`. */
export const MAX_FILE_SUGGESTIONS = 50;
