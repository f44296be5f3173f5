/**
 * Maps failures of an OpenAI-compatible endpoint to ProviderError codes with the remedies of spec 000 §7.
 * Every message and remedy passes through `redactSecrets`, so an API key never reaches a user, a log or an event.
 */
import type { APIError } from 'openai';
import type { ErrorFix, EventErrorCode } from '../../protocol';
import { ProviderError, withFix, type ProviderId } from './types';
import { parseRetryAfterMs } from './retry';
import { redactText, type SecretSet } from '../debug/redact';
import { GGUF_SLOW_REMEDY, ggufSymptom } from './ggufserver/remedies';
import { planRefusal } from './serviceai/plan-refusal';

export interface ErrorContext {
  provider: ProviderId;
  model: string;
  /** The endpoint the request went to (base URL), named in messages. */
  endpoint: string;
  /** Values that must never appear in a message (API keys, client secrets, tokens obtained at run time). */
  secrets: readonly string[] | SecretSet;
}

const LOCAL_PROVIDERS: readonly ProviderId[] = ['ggufserver', 'localrunner'];

/** Matches the ways servers say a prompt does not fit the model's context window. */
const CONTEXT_PATTERN =
  /context[_ ]length|maximum context|context (size|window)|exceed_context|too many tokens|prompt is too long|tokens? limit/i;
/** How cloud deployments say a model or feature is not offered in the resource's region. */
const REGION_PATTERN = /region|not available in (this|the) location|unsupported ?location|locationnotavailable/i;
const MODEL_NOT_FOUND_CODES = new Set(['model_not_found', 'deploymentnotfound', 'deployment_not_found']);

/** Replaces every occurrence of each secret in `text` with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[] | SecretSet): string {
  return redactText(text, secrets);
}

/** A ProviderError whose message and remedy carry no secret. */
export function safeProviderError(
  ctx: Pick<ErrorContext, 'secrets'>,
  code: ProviderError['code'],
  message: string,
  remedy: string,
  status?: number,
  retryAfterMs?: number,
  fix?: ErrorFix,
): ProviderError {
  return new ProviderError(
    code,
    redactSecrets(message, ctx.secrets),
    redactSecrets(remedy, ctx.secrets),
    status,
    retryAfterMs,
    fix,
  );
}

/** The setting that fixes a mapped failure, when one does: the spec §7 symptoms in settings terms. */
export function settingFix(code: EventErrorCode, ctx: Pick<ErrorContext, 'provider'>): ErrorFix | undefined {
  switch (code) {
    case 'connection_refused':
      return { action: 'set_base_url', configKey: `${ctx.provider}.baseUrl` };
    case 'auth_failed':
      // cloudhub may authenticate with an identity instead of a key; local servers take none
      return ctx.provider === 'serviceai' || ctx.provider === 'vendorapi' ? { action: 'set_key', configKey: `${ctx.provider}.apiKey` } : undefined;
    case 'not_in_plan':
      return { action: 'set_model', configKey: `${ctx.provider}.model` };
    case 'model_not_available':
      if (ctx.provider === 'cloudhub') return { action: 'set_setting', configKey: 'cloudhub.deploymentName' };
      // the gguf server serves the model it loaded: the address points at the wrong server
      if (ctx.provider === 'ggufserver') return { action: 'set_base_url', configKey: 'ggufserver.baseUrl' };
      return { action: 'set_model', configKey: `${ctx.provider}.model` };
    default:
      return undefined;
  }
}

function serverMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message.length > 0) return body.message;
  const prefix = err.status === undefined ? '' : `${err.status} `;
  return err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
}

function errorCodeText(err: APIError): string {
  return [err.code, err.type].filter((v): v is string => typeof v === 'string').join(' ');
}

/** The first network error code (ECONNREFUSED, ENOTFOUND...) found along the `cause` chain. */
function networkCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'connection timed out',
};

export function connectionRemedy(ctx: ErrorContext): string {
  if (ctx.provider === 'localrunner') {
    return `start the local runner with its \`serve\` command so it listens at ${ctx.endpoint}, or set localrunner.baseUrl / LOCALRUNNER_HOST to where it runs`;
  }
  return LOCAL_PROVIDERS.includes(ctx.provider)
    ? `start the server at ${ctx.endpoint} (or set ${ctx.provider}.baseUrl to where it runs)`
    : `check the endpoint ${ctx.endpoint} and the network connection`;
}

function authRemedy(ctx: ErrorContext): string {
  switch (ctx.provider) {
    case 'cloudhub':
      return 'check the API key or identity credentials (cloudhub.apiKey / CLOUDHUB_KEY, or the entra-id settings)';
    case 'vendorapi':
      return 'verify the API key (vendorapi.apiKey / VENDORAPI_API_KEY) and the account billing';
    case 'serviceai':
      return 'verify the API key (serviceai.apiKey / SERVICE_API_KEY)';
    default:
      return `verify the key the server at ${ctx.endpoint} expects`;
  }
}

export function rateLimitRemedy(provider: ProviderId): string {
  return provider === 'cloudhub'
    ? 'raise the tokens-per-minute quota of the deployment, or wait a moment and retry'
    : 'wait a moment and retry, or upgrade the plan';
}

function modelRemedy(ctx: ErrorContext, codeText: string): string {
  switch (ctx.provider) {
    case 'cloudhub': {
      const deployment = 'the deployment name must match exactly (cloudhub.deploymentName / CLOUDHUB_DEPLOYMENT)';
      // "Resource not found" (no DeploymentNotFound code): the path or the api-version is not one the resource serves.
      return /deploymentnotfound/i.test(codeText)
        ? deployment
        : `${deployment}; also check the endpoint (cloudhub.baseUrl / CLOUDHUB_ENDPOINT) and cloudhub.apiVersion (CLOUDHUB_API_VERSION)`;
    }
    case 'ggufserver':
      return `check that ${ctx.endpoint} is the model server and that a model is loaded`;
    case 'localrunner':
      return `pull the model "${ctx.model}" first`;
    default:
      return `check the model access of the account, or choose another model (${ctx.provider}.model)`;
  }
}

const CONTEXT_REMEDY = 'reduce the input or use a model with a larger context';

/** What a server said when it refused a request: status, its message, its error code/type words, headers. */
export interface HttpRefusal {
  status: number | undefined;
  detail: string;
  codeText?: string;
  headers?: Headers | Record<string, string | string[] | undefined>;
}

function fromApiError(err: APIError, ctx: ErrorContext): ProviderError {
  return fromHttpRefusal(
    { status: err.status, detail: serverMessage(err), codeText: errorCodeText(err), headers: err.headers },
    ctx,
  );
}

/** Maps an HTTP error answer to the ProviderError of its spec §7 symptom, naming the setting that fixes it. */
export function fromHttpRefusal(refusal: HttpRefusal, ctx: ErrorContext): ProviderError {
  const mapped = refusalError(refusal, ctx);
  return mapped.fix ? mapped : withFix(mapped, settingFix(mapped.code, ctx));
}

function refusalError(refusal: HttpRefusal, ctx: ErrorContext): ProviderError {
  const { status, detail } = refusal;
  const codeText = refusal.codeText ?? '';
  const where = `${ctx.provider} (${ctx.endpoint}, model "${ctx.model}")`;
  const http = status === undefined ? '' : ` (HTTP ${status})`;
  const symptom = ctx.provider === 'ggufserver' ? ggufSymptom(status, detail) : undefined;
  if (symptom) {
    const keep = symptom.keepStatus ? status : undefined;
    return safeProviderError(ctx, symptom.code, `the model server at ${ctx.endpoint} ${symptom.what}${http}: ${detail}`, symptom.remedy, keep);
  }
  if ((status === 400 || status === 413 || status === undefined) && CONTEXT_PATTERN.test(`${codeText} ${detail}`)) {
    return safeProviderError(ctx, 'context_too_long', `the prompt is too long for ${where}: ${detail}`, CONTEXT_REMEDY, status);
  }
  const notFoundCode = codeText.split(' ').some((word) => MODEL_NOT_FOUND_CODES.has(word.toLowerCase()));
  if (status === 404 || notFoundCode) {
    const what = ctx.provider === 'cloudhub' ? 'deployment or model' : 'model';
    return safeProviderError(ctx, 'model_not_available', `${what} not available at ${where}: ${detail}`, modelRemedy(ctx, codeText), status);
  }
  const notInPlan = ctx.provider === 'serviceai' ? planRefusal(refusal, ctx.model) : undefined;
  if (notInPlan) return safeProviderError(ctx, 'not_in_plan', notInPlan.message, notInPlan.remedy, status);
  if (status === 401 || status === 403) {
    return safeProviderError(ctx, 'auth_failed', `${where} rejected the credentials (HTTP ${status}): ${detail}`, authRemedy(ctx), status);
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfterMs(refusal.headers);
    return safeProviderError(
      ctx,
      'rate_limited',
      `rate limited by ${where} (HTTP 429): ${detail}`,
      rateLimitRemedy(ctx.provider),
      status,
      retryAfterMs,
    );
  }
  if (ctx.provider === 'cloudhub' && REGION_PATTERN.test(`${codeText} ${detail}`)) {
    return safeProviderError(
      ctx,
      'model_not_available',
      `${where} is not available in this region: ${detail}`,
      'deploy the model in a region where it is offered, then point cloudhub.resourceName (or CLOUDHUB_ENDPOINT) at that resource',
      status,
      undefined,
      { action: 'set_setting', configKey: 'cloudhub.resourceName' },
    );
  }
  if (status !== undefined && status >= 500) {
    return safeProviderError(
      ctx,
      'provider_error',
      `${where} failed with HTTP ${status}: ${detail}`,
      'the server had a problem; retry in a moment, and check its logs or status if it persists',
      status,
    );
  }
  return safeProviderError(
    ctx,
    'provider_error',
    `${where} refused the request${status === undefined ? '' : ` (HTTP ${status})`}: ${detail}`,
    'check the request settings for this provider and model',
    status,
  );
}

/** A transport failure (refused, unknown host, reset) as a `connection_refused` ProviderError naming the endpoint. */
export function fromNetworkFailure(err: unknown, ctx: ErrorContext): ProviderError {
  const code = networkCode(err);
  const words = code ? (NETWORK_WORDS[code] ?? code) : 'connection failed';
  return safeProviderError(
    ctx,
    'connection_refused',
    `cannot reach ${ctx.provider} at ${ctx.endpoint}: ${words}${code && NETWORK_WORDS[code] ? ` (${code})` : ''}`,
    connectionRemedy(ctx),
    undefined,
    undefined,
    settingFix('connection_refused', ctx),
  );
}

/** The ProviderError somewhere along the `cause` chain (e.g. thrown by a token source and wrapped by a client). */
function causeProviderError(err: unknown): ProviderError | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    if (current instanceof ProviderError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What to do when a model streams too slowly (the idle timeout fired): spec §7 "slow" remedies per provider. */
export function slowRemedy(provider: ProviderId): string {
  switch (provider) {
    case 'ggufserver':
      return `retry; the model server is slow: ${GGUF_SLOW_REMEDY}`;
    case 'localrunner':
      return 'retry; the local runner is slow: enable the GPU or use a smaller model';
    default:
      return 'retry; if it keeps happening, check that the server is not overloaded or use a smaller model';
  }
}

/** Turns any failure of a request to an OpenAI-compatible endpoint into a ProviderError. */
export function toProviderError(err: unknown, ctx: ErrorContext): ProviderError {
  const wrapped = causeProviderError(err);
  if (wrapped) {
    return safeProviderError(ctx, wrapped.code, wrapped.message, wrapped.remedy, wrapped.status, wrapped.retryAfterMs, wrapped.fix);
  }
  // The package's error classes, loaded only now: a chat request fails with ProviderErrors and never needs them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = require('openai') as typeof import('openai');
  if (err instanceof APIConnectionTimeoutError) {
    return safeProviderError(
      ctx,
      'stream_timeout',
      `${ctx.provider} at ${ctx.endpoint} did not answer in time`,
      slowRemedy(ctx.provider),
    );
  }
  if (err instanceof APIConnectionError) return fromNetworkFailure(err, ctx);
  if (err instanceof APIError) return fromApiError(err, ctx);
  const text = err instanceof Error ? err.message : String(err);
  return safeProviderError(
    ctx,
    'provider_error',
    `request to ${ctx.provider} at ${ctx.endpoint} failed: ${text}`,
    'retry; if it persists, check the provider settings',
  );
}

/** Whether a mapped failure may be retried (before any output was streamed). */
export function isRetryable(err: ProviderError): boolean {
  return err.code === 'rate_limited' || (err.code === 'provider_error' && err.status !== undefined && err.status >= 500);
}
