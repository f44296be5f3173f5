// named imports, not zod's `z` (all of zod): see src/protocol/zod.ts
import { fromJSONSchema, toJSONSchema, ZodError, type core, type ZodType } from 'zod';
import type { ResponseFormat } from '../protocol/records';
import { InvalidArgumentError, StructuredOutputError, errorText, toIssues, type ValidationIssue } from './errors';
import { extractJson } from './json-extract';

/** A JSON schema given as a plain object. */
export type JsonSchema = Record<string, unknown>;

export interface StructuredOutputOptions<T> {
  /** Name sent with the response format; letters, digits, `_` and `-` (default `response`). */
  schemaName?: string;
  /** A zod schema (converted with `z.toJSONSchema` and used to validate and type the value) or a JSON schema. */
  schema: ZodType<T> | JsonSchema;
  /**
   * `true` (default) validates against the schema; `false` returns any parsed JSON; a function validates
   * (and may transform) the value itself and throws to reject it.
   */
  validate?: boolean | ((value: unknown) => T);
  /**
   * When the answer is not valid, send one follow-up prompt naming the problems and asking for corrected
   * JSON only, then parse that answer (it becomes part of the conversation). Default false: fail at once.
   */
  repair?: boolean;
}

type Check<T> = (value: unknown) => { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

export interface PreparedSchema<T> {
  name: string;
  jsonSchema: JsonSchema;
  responseFormat: ResponseFormat;
  check: Check<T>;
}

function isZodSchema(s: unknown): s is ZodType {
  return typeof s === 'object' && s !== null && '_zod' in s && typeof (s as { safeParse?: unknown }).safeParse === 'function';
}

function zodCheck<T>(schema: ZodType): Check<T> {
  return (value) => {
    const r = schema.safeParse(value);
    return r.success ? { ok: true, value: r.data as T } : { ok: false, issues: toIssues(r.error.issues) };
  };
}

/** Checks the options and prepares the JSON schema sent to the runtime and the validator of the answer. */
export function prepareSchema<T>(opts: StructuredOutputOptions<T>): PreparedSchema<T> {
  if (opts === null || typeof opts !== 'object') throw new InvalidArgumentError('runJson needs options with a schema');
  const name = opts.schemaName ?? 'response';
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
    throw new InvalidArgumentError(`schemaName "${name}" must be 1-64 letters, digits, _ or -`);
  }
  const { schema } = opts;
  if (typeof schema === 'object' && schema !== null && '_def' in schema && !('_zod' in schema)) {
    throw new InvalidArgumentError(
      'schema is a zod 3 schema; runJson takes zod 4 schemas (import { z } from "zod" with zod >= 4) or a JSON schema object',
    );
  }
  let jsonSchema: JsonSchema;
  let schemaCheck: Check<T>;
  if (isZodSchema(schema)) {
    try {
      jsonSchema = toJSONSchema(schema, { unrepresentable: 'any' }) as JsonSchema;
    } catch (e) {
      throw new InvalidArgumentError(`schema cannot be expressed as a JSON schema: ${errorText(e)}`);
    }
    schemaCheck = zodCheck<T>(schema);
  } else if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    jsonSchema = schema;
    let validator: ZodType | undefined;
    schemaCheck = (value) => {
      try {
        validator ??= fromJSONSchema(schema as Parameters<typeof fromJSONSchema>[0]);
      } catch (e) {
        throw new InvalidArgumentError(
          `this JSON schema cannot be used for validation (${errorText(e)}); pass a zod schema, a validate function, or validate: false`,
        );
      }
      return zodCheck<T>(validator)(value);
    };
  } else {
    throw new InvalidArgumentError('schema must be a zod schema or a JSON schema object');
  }
  const validate = opts.validate ?? true;
  let check: Check<T>;
  if (validate === true) check = schemaCheck;
  else if (validate === false) check = (value) => ({ ok: true, value: value as T });
  else if (typeof validate === 'function') {
    check = (value) => {
      try {
        return { ok: true, value: validate(value) };
      } catch (e) {
        const issues = (e as { issues?: unknown }).issues;
        if (e instanceof ZodError || Array.isArray(issues)) return { ok: false, issues: toIssues(issues as core.$ZodIssue[]) };
        return { ok: false, issues: [{ path: '', message: errorText(e) }] };
      }
    };
  } else throw new InvalidArgumentError('validate must be true, false or a function');
  return { name, jsonSchema, responseFormat: { type: 'json_schema', name, schema: jsonSchema }, check };
}

/** The prompt sent for a structured answer: the task, then the demand for JSON only. */
export function jsonPrompt(prompt: string, prepared: PreparedSchema<unknown>): string {
  return (
    `${prompt}\n\nAnswer with only a JSON value (no prose, no code fence) that matches this JSON schema ` +
    `named "${prepared.name}":\n${JSON.stringify(prepared.jsonSchema)}`
  );
}

/** The follow-up prompt of the repair round trip. */
export function repairPrompt(issues: ValidationIssue[]): string {
  const list = issues.map((i) => `- ${i.path ? `${i.path}: ` : ''}${i.message}`).join('\n');
  return `Your previous answer was not valid JSON for the requested schema:\n${list}\nReply again with only the corrected JSON value.`;
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; message: string; issues: ValidationIssue[] };

/** Extracts and validates the JSON value of a final answer. */
export function parseStructured<T>(text: string, prepared: PreparedSchema<T>): ParseOutcome<T> {
  const found = extractJson(text);
  if (!found) {
    return {
      ok: false,
      message: 'the answer contains no JSON value',
      issues: [{ path: '', message: 'no JSON found (whole text, fenced block or embedded object/array)' }],
    };
  }
  const checked = prepared.check(found.value);
  if (checked.ok) return checked;
  return { ok: false, message: `the answer does not match schema "${prepared.name}"`, issues: checked.issues };
}

/** Throws the error for an answer that failed parsing or validation. */
export function structuredOutputFailure(text: string, outcome: { message: string; issues: ValidationIssue[] }): StructuredOutputError {
  return new StructuredOutputError(outcome.message, text, outcome.issues);
}
