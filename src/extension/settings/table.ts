/**
 * The `agentcli.*` VS Code settings that mirror the config file (spec 000 §2.4), in one table.
 * The manifest's `contributes.configuration` is generated from it (scripts/vscode-manifest.ts) and
 * the settings → `configure({ config })` mapping validates with it, so the two cannot drift apart.
 * Pure data: no `vscode` import.
 */

import { LOOP_TYPES, PROVIDER_IDS } from '../../protocol/constants';
import type { LoopType, ProviderId } from '../../protocol/records';

/** The providers, in the protocol's order (one list for the runtime, the SDK and the editor). */
export const PROVIDERS = PROVIDER_IDS;
export type ProviderName = ProviderId;

export const PROVIDER_LABELS: Record<ProviderName, string> = {
  serviceai: 'Hosted service',
  localrunner: 'Local model runner',
  ggufserver: 'Local gguf model server',
  vendorapi: 'Vendor API account',
  cloudhub: 'Cloud-hosted deployment',
};

interface Base {
  /** Dotted config key, e.g. `localrunner.temperature`; the setting is `agentcli.<key>`. */
  key: string;
  description: string;
  /**
   * `machine`: only user settings may set it, never a workspace (e.g. a program to run). `machine-overridable`: a
   * machine setting a (trusted) workspace may override.
   */
  scope?: 'machine' | 'machine-overridable';
  /**
   * An untrusted workspace cannot set it (the manifest's `restrictedConfigurations`): it decides where a key from
   * SecretStorage is sent, or what program runs.
   */
  restricted?: true;
}
export type SettingSpec = Base &
  (
    | { type: 'string'; default?: string; enum?: readonly string[]; format?: 'url' | 'keepAlive'; enumDescriptions?: string[] }
    | { type: 'integer'; default?: number; minimum?: number; maximum?: number }
    | { type: 'number'; default?: number; minimum?: number; maximum?: number }
    | { type: 'boolean'; default?: boolean }
    /** `schema`: the JSON schema of each property value (the settings.json editor completes and checks it). */
    | { type: 'object'; default?: undefined; schema: Record<string, unknown> }
  );

/** `0`, `-1`, or a duration such as `30s`, `5m`, `1h`. */
export const KEEP_ALIVE_PATTERN = /^(?:-1|0|\d+(?:ms|s|m|h))$/;

const url = (key: string, description: string, def?: string): SettingSpec => ({
  key,
  type: 'string',
  format: 'url',
  description,
  restricted: true, // the provider's key goes to this host
  ...(def !== undefined ? { default: def } : {}),
});

/** One line per run loop strategy, for the setting's enum and "Select Loop Strategy…". */
export const LOOP_TYPE_LABELS: Record<LoopType, string> = {
  react: 'One step at a time: think, call tools, look at the results, repeat (default).',
  'plan-and-execute': 'Plans the steps first, then carries them out one by one and re-plans when a step fails.',
  parallel: 'Runs the independent tool calls of a step at the same time (up to 4); approvals still come one at a time.',
  reflexion: 'After a failed step, writes a short critique of what went wrong and retries with it.',
};

const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
/** One `mcpServers` entry, for the settings.json editor (the extension and the runtime check it again). */
const MCP_SERVER_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    command: { type: 'string', description: 'The program that starts a local (stdio) server.' },
    args: { type: 'array', items: { type: 'string' }, description: 'Its arguments.' },
    env: { ...stringMap, description: 'Environment variables of the server; values may use ${secret:NAME} and ${env:NAME}.' },
    cwd: { type: 'string', description: 'Working folder of the server.' },
    url: { type: 'string', pattern: '^https?://', description: 'The address of a remote (Streamable HTTP) server.' },
    headers: { ...stringMap, description: 'HTTP headers sent to a remote server; values may use ${secret:NAME} and ${env:NAME}.' },
    timeoutMs: { type: 'integer', minimum: 1, description: 'Longest one tool call may take (default 60000).' },
    enabled: { type: 'boolean', description: 'false keeps the server configured but stopped.' },
  },
};

/** Settings passed to the runtime. Secrets (API keys, client secret) are not here: they live in SecretStorage. */
export const PROVIDER_SETTINGS: readonly SettingSpec[] = [
  {
    key: 'provider',
    type: 'string',
    enum: PROVIDERS,
    enumDescriptions: PROVIDERS.map((p) => PROVIDER_LABELS[p]),
    description:
      'The model provider the agent talks to. Unset: the value from `~/.agentcli/config.json` (default `serviceai`). ' +
      'Switch quickly with **agentcli: Select Provider…**.',
  },
  {
    key: 'loopType',
    type: 'string',
    enum: LOOP_TYPES,
    enumDescriptions: LOOP_TYPES.map((t) => LOOP_TYPE_LABELS[t]),
    description:
      'How the agent works through a request. Unset: the value from `~/.agentcli/config.json` (default `react`). ' +
      'Switch quickly with **agentcli: Select Loop Strategy…**.',
  },
  // serviceai (hosted)
  url('serviceai.baseUrl', 'Hosted service base address (`/v1` is appended by the runtime). Unset: the service default.'),
  { key: 'serviceai.model', type: 'string', default: 'fantail', description: 'Hosted model id, e.g. `fantail` (latency-first) or `moa` (reasoning-first).' },
  {
    key: 'serviceai.reasoning',
    type: 'string',
    enum: ['medium', 'high', 'xhigh'],
    description: 'Reasoning setting for models that support it (`moa`).',
  },
  // localrunner
  { key: 'localrunner.enabled', type: 'boolean', description: 'Enables the local model runner provider.' },
  url('localrunner.baseUrl', 'Local model runner address. Default `http://localhost:11434`.', 'http://localhost:11434'),
  { key: 'localrunner.model', type: 'string', default: 'llama3.2', description: 'Model name, form `<name>:<tag>`.' },
  { key: 'localrunner.contextLength', type: 'integer', minimum: 1, description: 'Maximum context window. Unset: the model\'s default.' },
  {
    key: 'localrunner.keepAlive',
    type: 'string',
    format: 'keepAlive',
    default: '5m',
    description: 'How long the model stays loaded: `0` unloads at once, `5m`, `1h`, `-1` keeps it loaded indefinitely.',
  },
  { key: 'localrunner.numCtx', type: 'integer', minimum: 1, default: 4096, description: 'Context size for generation (always sent, so prompts are not silently cut).' },
  { key: 'localrunner.temperature', type: 'number', minimum: 0, maximum: 1, default: 0.7, description: 'Randomness, from 0 to 1.' },
  { key: 'localrunner.numGpu', type: 'integer', minimum: 0, description: 'Number of GPU layers. Unset: auto-detected.' },
  { key: 'localrunner.numThread', type: 'integer', minimum: 1, description: 'CPU threads, e.g. 8.' },
  { key: 'localrunner.numBatch', type: 'integer', minimum: 1, description: 'Batch size, e.g. 512.' },
  // ggufserver
  url('ggufserver.baseUrl', 'Local gguf model server address. Default `http://127.0.0.1:8080`.', 'http://127.0.0.1:8080'),
  { key: 'ggufserver.model', type: 'string', description: 'Display name only: the server serves the model it loaded.' },
  { key: 'ggufserver.contextSize', type: 'integer', minimum: 1, default: 4096, description: 'Context window in tokens.' },
  { key: 'ggufserver.temperature', type: 'number', minimum: 0, maximum: 2, default: 0.7, description: 'Sampling temperature, from 0 to 2.' },
  { key: 'ggufserver.topP', type: 'number', minimum: 0, maximum: 1, default: 0.9, description: 'Nucleus sampling threshold, from 0 to 1.' },
  { key: 'ggufserver.topK', type: 'integer', minimum: 0, default: 40, description: 'Top-K sampling.' },
  { key: 'ggufserver.repeatPenalty', type: 'number', default: 1.1, description: 'Repetition penalty.' },
  { key: 'ggufserver.seed', type: 'integer', default: -1, description: 'Random seed; `-1` means random.' },
  { key: 'ggufserver.maxTokens', type: 'integer', minimum: 1, description: 'Maximum tokens in a response. Unset: the server decides.' },
  // vendorapi
  {
    key: 'vendorapi.model',
    type: 'string',
    default: 'gpt-4.1',
    description: 'Model id available to the account. Default `gpt-4.1`, the flagship multimodal model; set any model id the account can use.',
  },
  { key: 'vendorapi.maxTokens', type: 'integer', minimum: 1, default: 4096, description: 'Maximum tokens in a response.' },
  { key: 'vendorapi.temperature', type: 'number', minimum: 0, maximum: 2, default: 0.7, description: 'Randomness, from 0 to 2.' },
  { key: 'vendorapi.topP', type: 'number', minimum: 0, maximum: 1, description: 'Nucleus sampling threshold, from 0 to 1.' },
  { key: 'vendorapi.organization', type: 'string', description: 'Organization id.' },
  url('vendorapi.baseUrl', 'Custom API endpoint. Unset: the vendor\'s default.'),
  // cloudhub
  { key: 'cloudhub.model', type: 'string', description: 'Display name and model switching.' },
  // the endpoint host (and so where the cloudhub key or token goes) is built from it
  { key: 'cloudhub.resourceName', type: 'string', restricted: true, description: 'Resource name: the first label of the endpoint host.' },
  { key: 'cloudhub.deploymentName', type: 'string', description: 'Name of the model deployment.' },
  { key: 'cloudhub.apiVersion', type: 'string', default: '2024-10-21', description: 'API version sent as a query parameter.' },
  {
    key: 'cloudhub.authMethod',
    type: 'string',
    enum: ['api-key', 'entra-id', 'managed-identity'],
    enumDescriptions: [
      'API key (set it with **agentcli: Set API Key…**)',
      'Tenant id, client id and client secret (OAuth 2.0 client credentials)',
      'Managed identity of the workload (no credentials)',
    ],
    default: 'api-key',
    description: 'How requests authenticate.',
  },
  url('cloudhub.baseUrl', 'Full endpoint URL override; bypasses `resourceName` and `deploymentName`.'),
  // MCP servers: mapped and checked by src/extension/mcp/server-settings.ts (not by checkSetting)
  {
    key: 'mcpServers',
    type: 'object',
    scope: 'machine-overridable',
    restricted: true, // a server is a program the runtime starts, or a host that gets the headers
    schema: MCP_SERVER_SCHEMA,
    description:
      'MCP servers for the agent, added to (and by name overriding) the `mcpServers` of `~/.agentcli/config.json`: ' +
      '`{ "github": { "command": "npx", "args": ["-y", "my-server"], "env": { "TOKEN": "${secret:GITHUB_TOKEN}" } } }` or ' +
      '`{ "docs": { "url": "http://127.0.0.1:3000/mcp", "headers": { "Authorization": "Bearer ${secret:DOCS}" } } }`. ' +
      '`${secret:NAME}` in `env` and `headers` is read from VS Code\'s secret storage (store it with **agentcli: Set MCP Secret…**; user settings only). ' +
      'The **MCP Servers** view shows their state and tools. An untrusted workspace cannot set it.',
  },
  { key: 'cloudhub.tenantId', type: 'string', description: 'Identity tenant, for `entra-id`.' },
  { key: 'cloudhub.clientId', type: 'string', description: 'Application id, for `entra-id`.' },
];

/** Secrets kept in SecretStorage under `agentcli.<key>`, passed to the runtime only in the in-memory configure call. */
export interface SecretSpec {
  key: string;
  provider: ProviderName;
  label: string;
}
export const SECRET_SETTINGS: readonly SecretSpec[] = [
  { key: 'serviceai.apiKey', provider: 'serviceai', label: 'API key' },
  { key: 'vendorapi.apiKey', provider: 'vendorapi', label: 'API key' },
  { key: 'cloudhub.apiKey', provider: 'cloudhub', label: 'API key' },
  { key: 'cloudhub.clientSecret', provider: 'cloudhub', label: 'client secret' },
];

/** Extension-only settings (not sent to the runtime). */
export const HOST_SETTINGS: readonly SettingSpec[] = [
  {
    key: 'cliPath',
    type: 'string',
    // A workspace must not be able to name a program the extension then runs.
    scope: 'machine',
    restricted: true,
    description:
      'Path to an `agentcli.js` runtime to use instead of the bundled one (run with VS Code\'s own Node). Unset: the bundled runtime. User settings only: a workspace cannot set it.',
  },
  {
    key: 'debug',
    type: 'boolean',
    default: false,
    description: 'Log every protocol message to the **agentcli** output channel (secrets redacted).',
  },
];

/** Command id that sets one secret without asking which (e.g. the button of a missing-key error); "Set API Key…" asks. */
export function secretCommandId(key: string): string {
  const [provider, field] = key.split('.');
  return field === 'apiKey' ? `agentcli.setApiKey.${provider}` : `agentcli.setClientSecret.${provider}`;
}
