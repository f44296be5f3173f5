import type * as z from './zod';
import { MAX_CHANGE_CONTENTS_BYTES, MAX_EDITOR_SCHEMA_BYTES, MAX_EDITOR_SCHEMA_DEPTH, MAX_YOLO_MINUTES } from './limits';
import { runMethods } from './run';
import { permissionMethods } from './permissions';
import { changeMethods } from './change-decisions';
import { runControlMethods } from './run-control';
import { sessionStateMethods } from './session-state';
import { toolMethods } from './tools';
import { decisionMethods } from './decisions';
import { conversationMethods } from './conversations';
import { automodeMethods } from './automode';
import { handoffMethods } from './handoff';
import { undoMethods } from './undo-methods';
import { learningMethods } from './learning';

export { MAX_CHANGE_CONTENTS_BYTES, MAX_EDITOR_SCHEMA_BYTES, MAX_EDITOR_SCHEMA_DEPTH, MAX_YOLO_MINUTES };
export { Capabilities } from './run';
export { permissionAllowed } from './permissions';
export { YoloState } from './run-control';
export { RuntimeState } from './session-state';
export { McpServerStatus, ToolRegistryEntry } from './tools';
export { DecideParams, DecisionKind, DecisionResult } from './decisions';
export { MAX_HISTORY_PAGE_SIZE } from './conversations';

/**
 * Every request a host may send, with its params and result schemas.
 * Method names are the spec's runtime operations in camelCase.
 * Each area's methods are in its own file; they are spread in this order, the order of the protocol document.
 */
export const methods = {
  ...runMethods,
  ...permissionMethods,
  ...changeMethods,
  ...runControlMethods,
  ...sessionStateMethods,
  ...toolMethods,
  ...decisionMethods,
  ...conversationMethods,
  /** Auto-mode (spec 001 §3.3/§4.3): see ./automode. */
  ...automodeMethods,
  /** Skills and learning (spec 001 §4.3): see ./learning. */
  ...learningMethods,
  /** Browser handoff (spec 001 §4.3): see ./handoff. */
  ...handoffMethods,
  /** Undoing applied change batches: see ./undo-methods. */
  ...undoMethods,
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = z.input<Methods[M]['params']>;
export type ResultOf<M extends MethodName> = z.output<Methods[M]['result']>;
export const methodNames = Object.keys(methods) as MethodName[];
