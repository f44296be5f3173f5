/**
 * The hosted model catalog (`GET {base}/v1/models`, Bearer key): the models the caller's plan allows.
 * Fields beyond `id` are not specified, so they are kept opaque in `ModelInfo.extra`. Known service models the
 * catalog leaves out are listed as unavailable with the plan that includes them (rule in ./plans.ts).
 */
import * as z from '../../../protocol/zod';
import { safeProviderError, type ErrorContext } from '../errors';
import { readJsonBody, sendNative } from '../http/native-request';
import type { ModelInfo } from '../types';
import { DECISIONS_MODEL, DECISIONS_ONLY_REASON, SERVICEAI_MODEL_LIMITS } from './models';
import { PLAN_LIST_FIRST_PLAN, planHint } from './plans';

const CatalogEntry = z.looseObject({ id: z.string().min(1, 'must be a non-empty model id') });
/** The list shape `{ object: "list", data: [...] }`; a bare array is accepted too. */
const CatalogBody = z.union([z.looseObject({ data: z.array(CatalogEntry) }), z.array(CatalogEntry)]);
export type CatalogEntry = z.infer<typeof CatalogEntry>;

const CATALOG_TIMEOUT_MS = 30_000;

export interface CatalogRequest {
  /** The service base address (without /v1). */
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  signal?: AbortSignal;
}

export async function fetchCatalog(req: CatalogRequest, ctx: ErrorContext): Promise<CatalogEntry[]> {
  const response = await sendNative(
    req.fetch,
    {
      method: 'GET',
      url: `${req.baseUrl}/v1/models`,
      headers: { authorization: `Bearer ${req.apiKey}` },
      timeoutMs: CATALOG_TIMEOUT_MS,
      ...(req.signal ? { signal: req.signal } : {}),
    },
    ctx,
  );
  const body = await readJsonBody(response, 'the model catalog (/v1/models)', ctx);
  const parsed = CatalogBody.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
    throw safeProviderError(
      ctx,
      'provider_error',
      `the model catalog from ${ctx.endpoint}/v1/models has an unexpected shape (${issues})`,
      'check that serviceai.baseUrl (SERVICE_BASE_URL) points at the hosted service',
    );
  }
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.data;
}

function withLimits(info: ModelInfo): ModelInfo {
  const limits = SERVICEAI_MODEL_LIMITS[info.id];
  if (!limits) return info;
  return { ...info, contextWindow: limits.contextWindow, ...(limits.maxOutput !== undefined ? { maxOutput: limits.maxOutput } : {}) };
}

/** One catalog entry as a ModelInfo: unknown fields kept in `extra`; the decisions model is not chat-capable. */
export function describeCatalogEntry(entry: CatalogEntry): ModelInfo {
  const { id, ...extra } = entry;
  const info: ModelInfo = { id, available: id !== DECISIONS_MODEL, extra };
  if (id === DECISIONS_MODEL) info.reason = DECISIONS_ONLY_REASON;
  return withLimits(info);
}

/**
 * What the model picker shows: every catalog entry (in catalog order), then each known service model the
 * catalog left out, unavailable, with the plan that includes it.
 */
export function pickerModels(entries: readonly CatalogEntry[]): ModelInfo[] {
  const listed = entries.map(describeCatalogEntry);
  const ids = new Set(listed.map((m) => m.id));
  const missing = Object.keys(PLAN_LIST_FIRST_PLAN)
    .filter((id) => !ids.has(id))
    .map((id) => {
      const hint = planHint(id) ?? 'not offered to this account';
      const decisions = id === DECISIONS_MODEL ? ' (and it answers typed decisions only, not chat)' : '';
      return withLimits({ id, available: false, reason: `not in your plan: ${hint}${decisions}` });
    });
  return [...listed, ...missing];
}
