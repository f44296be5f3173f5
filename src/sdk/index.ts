/**
 * The agentcli SDK: drive the agent runtime (`agentcli --mode rpc`) from TypeScript.
 * High level: `Agent`, `Run`, step control (`stopWhen`), structured output (`runJson`).
 * Low level: `RuntimeClient`, one typed method per runtime operation.
 */
export { Agent, type AgentOptions, type PermissionDecision, type PermissionRequest, type PlanDecision, type PlanProposal, type RunJsonOptions } from './agent';
export type { DirectoryAccessCallback, DirectoryAccessDecision, DirectoryAccessRequest } from './directory-access';
export type { ChangeBatchCallback, ChangeBatchDecision, ChangeOutcome, ReadyChangeBatch, RunChange } from './change-batch';
export { Run, RunFailedError, type RunOptions, type RunResult } from './run';
export { isStepCount, hasToolCall, type StopCondition, type StopConditionContext } from './step-control';
export type { StructuredOutputOptions, JsonSchema } from './structured-output';
export { extractJson, type ExtractedJson, type JsonSource } from './json-extract';
export {
  RuntimeClient,
  SDK_VERSION,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_STOP_GRACE_MS,
  LOOP_TYPES,
  type LoopType,
  type RuntimeClientOptions,
  type InitializeResult,
  type PromptOptions,
  type PromptResult,
  type PromptHandle,
  type RunResultLike,
  type ExitInfo,
} from './client';
export type { RuntimeTransport } from './runtime-transport';
export * from './errors';
export { SessionAttachError } from './saved-sessions';
export { Session, SessionFileError, SESSION_FILE_VERSION, type SessionError, type SessionFile, type SessionMessage, type SessionToolCall } from './session';
export { Runner, RunnerError, defineAgent, type AgentDefinition, type RunnerAgentOptions, type RunnerOptions, type RunnerResult } from './runner';
export { decide, InvalidDecisionParamsError, type DecisionClient, type DecisionOf } from './decide';
export type { DecideParams, DecisionKind, DecisionResult } from '../protocol/methods';
export type { AgentEvent, AgentEventType, EventOf } from '../protocol/events';
export { KNOWN_EVENT_TYPES, type GenericEvent, type SdkEvent } from './generic-event';
export type { AgentStep, DirectoryAccessScope, PermissionMode, PermissionScope, RunStatus, ChangeBatch, Change, ChangeContents, HistoryMessage, PlanStep, PlanStepStatus } from '../protocol/records';
export type { MethodName, ParamsOf, ResultOf, RuntimeState, Capabilities } from '../protocol/methods';
export type { AutomodeIterationLog, AutomodeState, AutomodeStatus, AutomodeToolCall } from '../protocol/automode';
export type { SkillInfo, SkillRecommendation, SkillScope } from '../protocol/learning';
export { PROTOCOL_VERSION, isCompatibleProtocol } from '../protocol/version';
export { RpcErrorCode } from '../protocol/errors';
