import { fixForConfigKey, isCompatibleProtocol, permissionAllowed, PROTOCOL_VERSION, RpcErrorCode, type Capabilities, type ResultOf } from '../../protocol';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../protocol/transport';
import { rpcErrorData, RuntimeRequestError } from '../agent/errors';
import type { Session } from '../agent/session';
import { ConfigSchema, PROVIDER_IDS, type ProviderId } from '../config/schema';
import { formatZodIssues } from './format-issues';
import { createProvider, parseModelSelector } from '../providers/create-provider';
import { RUNTIME_VERSION } from '../version';
import { InvalidDecisionRequest, requestDecision } from '../decisions/client';
import { ProviderError } from '../providers/types';
import { summarizeBatch } from '../changes';
import type { SavedSessionData } from '../sessions/reader';
import { AutomodeController } from '../automode/controller';
import { automodeHandlers } from '../automode/rpc-handlers';
import { learningHandlers } from '../learning/rpc-handlers';
import { HandoffController } from '../handoff/controller';
import { handoffHandlers } from '../handoff/rpc-handlers';
import { undoHandlers } from '../agent/undo-changes';
import type { Handlers } from './handler-types';

export type { Handlers };

const ok = { ok: true as const };

function unknownId(kind: string, id: string): never {
  throw new RuntimeRequestError(RpcErrorCode.UnknownId, `no pending ${kind} with id "${id}" (already answered, cancelled, or never sent)`);
}

function deepMerge(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overlay)) {
    const cur = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)
        ? deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/**
 * `config` merged over `base` and checked; a ConfigError-coded request error names the first wrong key in `data.fix`.
 * Keys of the issue path are joined as the config's dotted keys.
 */
function mergedConfig(base: Record<string, unknown>, config: Record<string, unknown>) {
  const parsed = ConfigSchema.safeParse(deepMerge(base, config));
  if (parsed.success) return parsed.data;
  const message = `invalid settings: ${formatZodIssues(parsed.error.issues)}`;
  const path = parsed.error.issues[0]?.path ?? [];
  const fix = path.length > 0 && path.every((k) => typeof k === 'string') ? fixForConfigKey(path.join('.')) : undefined;
  throw new RuntimeRequestError(RpcErrorCode.ConfigError, message, { code: 'config_error', message, ...(fix ? { fix } : {}) });
}

/**
 * In `setModel` a `/` or `:` after a word means `<provider>/<model>`: an unknown provider or a missing model is refused
 * rather than taken as a model id (the schema already refused a missing half around `/`).
 */
function checkProviderPrefix(model: string, provider: ProviderId | undefined): void {
  if (provider) return;
  const providers = PROVIDER_IDS.join(', ');
  const slash = model.indexOf('/');
  if (slash > 0) {
    const head = model.slice(0, slash);
    throw new RuntimeRequestError(
      RpcErrorCode.InvalidParams,
      `invalid params for setModel: "model": "${head}" in "${model}" is not a provider (the providers are ${providers}); ` +
        `write <provider>/<model>, e.g. "ggufserver/${model.slice(slash + 1)}"; a model id that itself contains "/" needs its provider in front, e.g. "vendorapi/${model}"`,
    );
  }
  const bareProvider = /^([a-z]+):$/i.exec(model)?.[1]?.toLowerCase();
  if (bareProvider !== undefined && (PROVIDER_IDS as readonly string[]).includes(bareProvider)) {
    throw new RuntimeRequestError(
      RpcErrorCode.InvalidParams,
      `invalid params for setModel: "model": the model after "${bareProvider}:" is missing: write ${bareProvider}/<model>`,
    );
  }
}

function savedSessionDetails(d: SavedSessionData): ResultOf<'getSession'> {
  return {
    sessionId: d.meta.sessionId,
    title: d.meta.title,
    cwd: d.meta.cwd,
    createdAt: d.meta.createdAt,
    updatedAt: d.updatedAt,
    messageCount: d.messages.length,
    provider: d.provider,
    model: d.model,
    messages: d.messages,
    errors: d.errors,
    pendingBatch: d.batch ? summarizeBatch(d.batch) : null,
    decidedBatches: d.decided,
    shown: d.shown,
    skippedLines: d.tornBytes ? 1 : 0,
  };
}

export function createHandlers(session: Session, capabilities: Capabilities): Handlers {
  const automode = new AutomodeController(session);
  return {
    ...automodeHandlers(automode),
    ...learningHandlers(session),
    ...handoffHandlers(new HandoffController(session)),
    ...undoHandlers(session),
    initialize: async (p) => {
      if (!isCompatibleProtocol(p.protocolVersion)) {
        throw new RuntimeRequestError(
          RpcErrorCode.ProtocolVersionMismatch,
          `protocol version ${p.protocolVersion} is not compatible with this runtime's ${PROTOCOL_VERSION}: update the host or the agentcli runtime so their major versions match`,
        );
      }
      const sel = session.selected();
      const recovered = await session.store.recover();
      return {
        ...(recovered.length > 0 ? { recoveredApplies: recovered } : {}),
        protocolVersion: PROTOCOL_VERSION,
        runtimeVersion: RUNTIME_VERSION,
        sessionId: session.id,
        cwd: session.cwd,
        provider: sel.provider,
        model: sel.model,
        permissionMode: session.permissionMode,
        capabilities,
      };
    },
    prompt: (p) => {
      const req = {
        message: p.message,
        ...(p.context ? { context: p.context } : {}),
        ...(p.stepControl !== undefined ? { stepControl: p.stepControl } : {}),
        ...(p.maxIterations !== undefined ? { maxIterations: p.maxIterations } : {}),
        ...(p.responseFormat ? { responseFormat: p.responseFormat } : {}),
      };
      const run = p.history ? session.startRunWithHistory(req, p.history) : session.startRun(req);
      return { runId: run.runId };
    },
    abort: () => session.abort(),
    permissionResponse: (p) => {
      const allowed = permissionAllowed(p);
      const answer = { allowed, scope: p.scope ?? 'once', ...(p.alternative ? { alternative: p.alternative } : {}) };
      if (!session.pending.answer(p.requestId, 'permission', answer)) unknownId('permission request', p.requestId);
      return ok;
    },
    acknowledgePermission: (p) => {
      if (!session.pending.acknowledge(p.requestId, 'permission')) unknownId('permission request', p.requestId);
      return ok;
    },
    respondToDirectoryAccess: (p) => {
      const answer = { allowed: p.allowed, scope: p.scope ?? 'once', ...(p.reason ? { reason: p.reason } : {}) };
      if (!session.pending.answer(p.requestId, 'directory', answer)) {
        unknownId('directory access request', p.requestId);
      }
      return ok;
    },
    acknowledgeDirectoryAccess: (p) => {
      if (!session.pending.acknowledge(p.requestId, 'directory')) unknownId('directory access request', p.requestId);
      return ok;
    },
    decideChanges: (p) => session.decideChanges(p.batchId, p.decision, p.changeIds, p.hunks),
    // One change on its own must fit the host's line limit, with room for the envelope.
    getChangeContents: (p) => session.changeContents(p.batchId, p.changeIds, DEFAULT_MAX_MESSAGE_BYTES - 64 * 1024),
    respondToStep: (p) => {
      const id = `${p.runId}#${p.stepNumber}`;
      const answer = { decision: p.decision, ...(p.reason ? { reason: p.reason } : {}) };
      if (!session.pending.answer(id, 'step', answer)) unknownId('step decision', id);
      return ok;
    },
    respondToPlan: (p) => ({ runId: session.respondToPlan(p.planId, p.decision, p.note).runId }),
    setPlanMode: (p) => {
      session.planMode = p.enabled;
      return { planMode: session.planMode };
    },
    setPermissionMode: (p) => ({ permissionMode: session.setPermissionMode(p.mode) }),
    setYolo: (p) => ({ yolo: session.setYolo(p.enabled, p.timeoutMinutes) }),
    setModel: (p) => {
      const sel = parseModelSelector(p.model);
      checkProviderPrefix(p.model, sel.provider);
      session.selection = { ...(sel.provider ? { provider: sel.provider } : { provider: session.selected().provider as ProviderId }), model: sel.model };
      return session.selected();
    },
    addHook: (p) => ({ event: p.event, count: session.hooks.add(p) }),
    getState: () => session.state(),
    getMessages: () => ({ messages: session.history }),
    getContextUsage: () => {
      const usage = session.contextUsage();
      let contextWindow: number | undefined;
      try {
        contextWindow = createProvider(session.config, session.selection).contextWindow;
      } catch {
        contextWindow = undefined;
      }
      const compaction = { enabled: session.compactor.enabled, threshold: session.compactor.threshold };
      return { ...usage, ...(contextWindow ? { contextWindow } : {}), compaction };
    },
    listModels: async (p) => {
      let provider = session.selected().provider as ProviderId;
      if (p.provider !== undefined) {
        if (!(PROVIDER_IDS as readonly string[]).includes(p.provider)) {
          throw new RuntimeRequestError(RpcErrorCode.InvalidParams, `"provider" must be one of ${PROVIDER_IDS.join(', ')} (got "${p.provider}")`);
        }
        provider = p.provider as ProviderId;
      }
      // A dry run lists with the settings tried on top of the current configuration, and with the models they name.
      const config = p.config ? mergedConfig(session.config as Record<string, unknown>, p.config) : session.config;
      const sameProvider = provider === session.selected().provider && !p.config;
      let instance;
      let modelUnset = false;
      try {
        instance = createProvider(config, sameProvider ? session.selection : { provider });
      } catch (e) {
        // Listing needs no model: a provider that will not build without one (vendorapi) lists with a stand-in
        // name, so the picker can offer the models to choose from.
        try {
          instance = createProvider(config, { provider, model: 'model-listing' });
          modelUnset = true;
        } catch {
          throw e;
        }
      }
      const models = await instance.listModels();
      return {
        provider,
        current: modelUnset ? '' : sameProvider ? session.selected().model : instance.model,
        models: models.map((m) => ({
          id: m.id,
          available: m.available,
          ...(m.reason ? { reason: m.reason } : {}),
          ...(m.contextWindow ? { contextWindow: m.contextWindow } : {}),
          ...(m.maxOutput ? { maxOutput: m.maxOutput } : {}),
          ...(m.extra && Object.keys(m.extra).length > 0 ? { extra: m.extra } : {}),
        })),
      };
    },
    configure: (p) => {
      const parsed = mergedConfig(session.baseConfig as Record<string, unknown>, p.config);
      try {
        session.applyConfig(parsed);
      } catch (e) {
        throw new RuntimeRequestError(RpcErrorCode.ConfigError, `invalid settings: ${(e as Error).message}`);
      }
      return session.selected();
    },
    setEditorMcpTools: (p) => {
      try {
        const registered = session.editorTools.set(p.tools);
        session.toolsChanged(`editor tools registered: ${registered.length}`);
        return { registered };
      } catch (e) {
        throw new RuntimeRequestError(RpcErrorCode.InvalidParams, `invalid params for setEditorMcpTools: ${(e as Error).message}`);
      }
    },
    getToolsRegistry: () => session.toolsRegistry(),
    respondToMcpInvocation: (p) => {
      const answer = p.success ? { success: true as const, result: p.result ?? '' } : { success: false as const, error: p.error ?? '' };
      if (!session.editorTools.answer(p.requestId, answer)) unknownId('editor tool invocation', p.requestId);
      return ok;
    },
    reset: () => ({ sessionId: session.reset() }),
    getHistory: (p) => {
      // The schema's defaults apply on the wire; direct callers may leave them out too.
      const q = { ...p, page: p.page ?? 1, pageSize: p.pageSize ?? 20 };
      if (!session.saved) return { entries: [], total: 0, page: q.page, pageSize: q.pageSize };
      return session.saved.history(q);
    },
    getSession: (p) => {
      const loaded = session.saved?.load(p.sessionId);
      if (!loaded?.ok) {
        const code = loaded?.reason === 'corrupt' ? RpcErrorCode.InternalError : RpcErrorCode.UnknownId;
        throw new RuntimeRequestError(code, loaded?.message ?? `no saved session "${p.sessionId}"`);
      }
      return savedSessionDetails(loaded.data);
    },
    attachSession: (p) => session.attachSaved(p.sessionId),
    deleteSession: (p) => {
      if (!session.saved) return { deleted: false, reason: 'not_found', message: `no saved session "${p.sessionId}" (this runtime reads no saved sessions)` };
      return session.saved.delete(p.sessionId, session.id);
    },
    compactContext: async () => {
      const compacted = await session.compactNow();
      return { compacted, ...session.contextUsage() };
    },
    setContextCompact: (p) => ({ enabled: session.compactor.set(p.enabled) }),
    decide: async (p) => {
      try {
        return await requestDecision(session.config, p);
      } catch (e) {
        if (e instanceof ProviderError) {
          const code = e.code === 'config_error' ? RpcErrorCode.ConfigError : RpcErrorCode.ProviderError;
          throw new RuntimeRequestError(code, `${e.message}. Remedy: ${e.remedy}`, rpcErrorData(e));
        }
        if (e instanceof InvalidDecisionRequest) throw new RuntimeRequestError(RpcErrorCode.InvalidParams, e.message);
        throw e;
      }
    },
  };
}
