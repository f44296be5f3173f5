/**
 * Checks an editor tool's input schema when `setEditorMcpTools` registers it, because the schema is sent to the model
 * as the tool's parameters with every later request: a schema that a provider refuses, that cannot be serialized, or
 * that bloats every request would otherwise break each prompt after it instead of being refused once, here.
 */
import { MAX_EDITOR_SCHEMA_BYTES, MAX_EDITOR_SCHEMA_DEPTH } from '../../protocol/limits';
import { findTooDeep, formatPath } from '../value-depth';

/** Why `schema` cannot be a tool's parameters (`where` names it, e.g. `tools[0].inputSchema`), or undefined when it can. */
export function editorSchemaProblem(schema: Record<string, unknown>, where: string): string | undefined {
  const deep = findTooDeep(schema, MAX_EDITOR_SCHEMA_DEPTH);
  if (deep) {
    return `${where} is nested more than ${MAX_EDITOR_SCHEMA_DEPTH} levels deep at ${formatPath(where, deep)}: flatten the schema`;
  }
  if (schema.type !== 'object') {
    const got = schema.type === undefined ? 'no "type"' : `"type": ${JSON.stringify(schema.type)}`;
    return `${where} must be a JSON Schema with "type": "object" at the top (the model receives it as the tool's parameters); it has ${got}`;
  }
  if (schema.properties !== undefined && (typeof schema.properties !== 'object' || schema.properties === null || Array.isArray(schema.properties))) {
    return `${where}.properties must be an object mapping each parameter name to its schema`;
  }
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch (e) {
    return `${where} cannot be serialized for the model: ${(e as Error).message}`;
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_EDITOR_SCHEMA_BYTES) {
    return `${where} is ${bytes} bytes as JSON; at most ${MAX_EDITOR_SCHEMA_BYTES} are accepted (it is sent with every model request)`;
  }
  return undefined;
}
