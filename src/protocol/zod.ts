/**
 * zod as this project uses it: `import * as z from '…/protocol/zod'` instead of zod's own `z`. zod's `z` is one object
 * holding all of zod, so a bundle that uses it keeps all of zod. Named imports keep only what they name. In the CLI,
 * that was about 90 KB of unused code, read and compiled at every start.
 * Add a member here when the code needs one; the type check says so.
 */
export {
  array,
  boolean,
  config,
  discriminatedUnion,
  enum,
  lazy,
  literal,
  looseObject,
  number,
  object,
  record,
  string,
  toJSONSchema,
  union,
  unknown,
  url,
} from 'zod';
export type { core, infer, input, output, ZodType } from 'zod';
