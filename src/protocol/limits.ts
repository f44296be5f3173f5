/**
 * Numeric limits of the protocol, in a module without schemas: the runtime's one-shot path imports them without
 * building every method's schema at start-up. `methods.ts` re-exports them.
 */

/** Deepest nesting of an editor tool's `inputSchema` (the schema object is level 1): it is sent to the model as is. */
export const MAX_EDITOR_SCHEMA_DEPTH = 32;
/** Largest `inputSchema` of one editor tool as JSON (64 KiB): it is sent with every model request. */
export const MAX_EDITOR_SCHEMA_BYTES = 64 * 1024;

/** Most bytes of file contents (JSON-encoded) one `getChangeContents` answer carries: 8 MiB; the rest is listed in `omitted`. */
export const MAX_CHANGE_CONTENTS_BYTES = 8 * 1024 * 1024;

/** The longest yolo timeout `setYolo` accepts: 7 days, in minutes. */
export const MAX_YOLO_MINUTES = 10_080;

/** Most iterations one auto-mode run may be given. */
export const MAX_AUTOMODE_ITERATIONS = 1000;
