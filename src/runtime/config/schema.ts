/**
 * The agentcli configuration (`~/.agentcli/config.json`, `<project>/.agentcli/config.json`).
 * Defaults follow spec 000 §2.4 and §8. Objects are loose: keys this version does not know
 * (another tool's settings) are kept, so writing a value never drops someone else's settings.
 *
 * Every message is phrased to follow the dotted key, e.g. `"localrunner.temperature" must be a
 * number from 0 to 1`; the loader appends the file name and the value it got.
 */
import * as z from '../../protocol/zod';
import { LOOP_TYPES } from '../../protocol/records';
import { LOCALRUNNER_PRESET_NAMES } from './presets';
import { RULE_SYNTAX_HELP, RuleSyntaxError, parseRule, unknownRuleToolProblem } from '../permissions/rules';
import { McpServersSchema } from '../mcp/server-config';
import { HooksSettingsSchema } from '../hooks/config';
import { SANDBOX_MODES } from '../sandbox/modes';
import { ENV_NAME_GLOB } from '../secrets/command-env';

import { PERMISSION_MODES, PROVIDER_IDS, type ProviderId } from '../../protocol/records';

export { PERMISSION_MODES, PROVIDER_IDS, type ProviderId };

/** Loop strategies (defined once in the protocol); `react` is the default. */
export { LOOP_TYPES };
export const DEFAULT_LOOP_TYPE = 'react';

export const SERVICEAI_REASONING = ['medium', 'high', 'xhigh'] as const;
export const CLOUDHUB_AUTH_METHODS = ['api-key', 'entra-id', 'managed-identity'] as const;

/** Keys whose values are secrets: masked when shown, never read from the project file in bare mode. */
export const SECRET_KEYS = ['apiKey', 'clientSecret'] as const;

const oneOf = (values: readonly string[]): string => `must be one of ${values.map((v) => `"${v}"`).join(', ')}`;

/**
 * One instance of each common field type, shared by every field of that type: zod schemas never change once made
 * (`.optional()`, `.default()`, `.min()` make new ones), and each instance costs time at every start (the CLI parses
 * this schema before its first request). None of these is described, so sharing carries no metadata across fields.
 */
const shared = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
const str = shared(() => z.string({ error: 'must be a string' }));
const bool = shared(() => z.boolean({ error: 'must be true or false' }));
const int = shared(() => z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }));
const positiveInt = shared(() => {
  const msg = 'must be a positive integer';
  return z.number({ error: msg }).int({ error: msg }).positive({ error: msg });
});
const num = shared(() => z.number({ error: 'must be a number' }));
const numberFrom = (min: number, max: number) => {
  const msg = `must be a number from ${min} to ${max}`;
  return z.number({ error: msg }).min(min, { error: msg }).max(max, { error: msg });
};
const httpUrl = shared(() =>
  z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. "http://localhost:8080"' }),
);
const enumOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: oneOf(values) });

/** `0`, `-1`, or a duration such as `30s`, `5m`, `1h` (also accepted as the numbers 0 and -1). */
export const KEEP_ALIVE_PATTERN = /^(?:-1|0|\d+(?:ms|s|m|h))$/;
const keepAliveMessage = 'must be "0", "-1" or a duration such as "5m", "10m", "1h"';
const keepAlive = () =>
  z.union([z.string().regex(KEEP_ALIVE_PATTERN, { error: keepAliveMessage }), z.literal(0), z.literal(-1)], {
    error: keepAliveMessage,
  });

/** A permission rule string, checked with the rule parser (a typo is reported with the syntax) and for its tool name. */
const ruleString = () =>
  str().superRefine((value, ctx) => {
    let rule;
    try {
      rule = parseRule(value);
    } catch (error) {
      const problem = error instanceof RuleSyntaxError ? error.problem : String(error);
      ctx.addIssue({ code: 'custom', message: `is not a valid rule (${problem}); ${RULE_SYNTAX_HELP}` });
      return;
    }
    const unknownTool = unknownRuleToolProblem(rule);
    if (unknownTool) ctx.addIssue({ code: 'custom', message: `is not a valid rule: ${unknownTool}` });
  });
const ruleList = shared(() => z.array(ruleString(), { error: 'must be an array of rule strings such as ["Bash(npm run test:*)"]' }));

export const ServiceAiSettingsSchema = z.looseObject({
  baseUrl: httpUrl().optional(),
  apiKey: str().optional(),
  model: str().default('fantail'),
  reasoning: enumOf(SERVICEAI_REASONING).optional(),
});

export const LocalRunnerSettingsSchema = z.looseObject({
  enabled: bool().optional(),
  baseUrl: httpUrl().default('http://localhost:11434'),
  model: str().default('llama3.2'),
  contextLength: positiveInt().optional(),
  keepAlive: keepAlive().default('5m'),
  numCtx: positiveInt().default(4096),
  temperature: numberFrom(0, 1).default(0.7),
  numGpu: int().min(0, { error: 'must be an integer of 0 or more' }).optional(),
  numThread: positiveInt().optional(),
  numBatch: positiveInt().optional(),
  preset: z.enum(LOCALRUNNER_PRESET_NAMES, { error: `is not a known preset; ${oneOf(LOCALRUNNER_PRESET_NAMES)}` }).optional(),
});

export const GgufServerSettingsSchema = z.looseObject({
  baseUrl: httpUrl().default('http://127.0.0.1:8080'),
  model: str().optional(),
  contextSize: positiveInt().default(4096),
  temperature: numberFrom(0, 2).default(0.7),
  topP: numberFrom(0, 1).default(0.9),
  topK: int().min(0, { error: 'must be an integer of 0 or more' }).default(40),
  repeatPenalty: num().positive({ error: 'must be a number greater than 0 (1 means no penalty; default 1.1)' }).default(1.1),
  seed: int().min(-1, { error: 'must be an integer of -1 or more (-1 means a random seed)' }).default(-1),
  maxTokens: positiveInt().optional(),
});

/**
 * vendorapi's model when none is set (spec 000 §2.4.3: "the vendor's flagship multimodal model id"): text and image
 * input, on every account tier, and it takes the `temperature` and `max_tokens` this provider sends (reasoning-only
 * models refuse both). Override with vendorapi.model, SERVICE_MODEL or --model.
 */
export const VENDORAPI_DEFAULT_MODEL = 'gpt-4.1';

export const VendorApiSettingsSchema = z.looseObject({
  apiKey: str().optional(),
  model: str().default(VENDORAPI_DEFAULT_MODEL),
  maxTokens: positiveInt().default(4096),
  temperature: numberFrom(0, 2).default(0.7),
  topP: numberFrom(0, 1).optional(),
  organization: str().optional(),
  baseUrl: httpUrl().optional(),
});

export const CloudHubSettingsSchema = z.looseObject({
  model: str().optional(),
  apiKey: str().optional(),
  resourceName: str().optional(),
  deploymentName: str().optional(),
  apiVersion: str().default('2024-10-21'),
  authMethod: enumOf(CLOUDHUB_AUTH_METHODS).default('api-key'),
  baseUrl: httpUrl().optional(),
  tenantId: str().optional(),
  clientId: str().optional(),
  clientSecret: str().optional(),
});

export const PermissionsSettingsSchema = z.looseObject({
  allow: ruleList().default([]),
  ask: ruleList().default([]),
  deny: ruleList().default([]),
  defaultMode: enumOf(PERMISSION_MODES).optional(),
  additionalDirectories: z.array(str(), { error: 'must be an array of directory paths' }).default([]),
});

/** How run_command is isolated (see README "Sandbox and secrets"). */
export const SandboxSettingsSchema = z.looseObject({
  mode: enumOf(SANDBOX_MODES).default('workspace-write'),
  network: bool().default(false),
});

const envNameList = () =>
  z.array(
    str().regex(ENV_NAME_GLOB, { error: 'must hold variable names or globs of them, such as "GITHUB_TOKEN" or "NPM_*"' }),
    { error: 'must be an array of variable names or globs, such as ["GITHUB_TOKEN", "NPM_*"]' },
  );

/** The environment commands get: variables named like secrets are left out; `include` re-admits, `exclude` removes more. */
export const ShellSettingsSchema = z.looseObject({
  env: z
    .looseObject({
      include: envNameList().default([]),
      exclude: envNameList().default([]),
    })
    .prefault({}),
});

/** Saved sessions (`~/.agentcli/sessions/`): whether to save, and how many and how old ones are kept. */
export const SessionsSettingsSchema = z.looseObject({
  persist: bool().default(true),
  maxCount: positiveInt().default(500),
  maxAgeDays: positiveInt().default(90),
});

/** Context compaction (see README "Saved sessions"): on by default; `threshold` is the share of the window. */
export const CompactionSettingsSchema = z.looseObject({
  enabled: bool().default(true),
  threshold: numberFrom(0.1, 0.95).default(0.8),
});

/** The `reflexion` loop: how many critiques (and retries) one run gets after failing steps. */
export const ReflexionSettingsSchema = z.looseObject({
  maxRetries: int().min(0, { error: 'must be an integer from 0 to 10' }).max(10, { error: 'must be an integer from 0 to 10' }).default(2),
});

export const ConfigSchema = z.looseObject({
  provider: enumOf(PROVIDER_IDS).default('serviceai'),
  model: str().optional(),
  maxIterations: positiveInt().default(50),
  commandTimeoutMs: positiveInt().default(120000),
  loopType: z.enum(LOOP_TYPES, { error: oneOf(LOOP_TYPES) }).default(DEFAULT_LOOP_TYPE),
  reflexion: ReflexionSettingsSchema.prefault({}),
  serviceai: ServiceAiSettingsSchema.prefault({}),
  localrunner: LocalRunnerSettingsSchema.prefault({}),
  ggufserver: GgufServerSettingsSchema.prefault({}),
  vendorapi: VendorApiSettingsSchema.prefault({}),
  cloudhub: CloudHubSettingsSchema.prefault({}),
  permissions: PermissionsSettingsSchema.prefault({}),
  sandbox: SandboxSettingsSchema.prefault({}),
  shell: ShellSettingsSchema.prefault({}),
  sessions: SessionsSettingsSchema.prefault({}),
  compaction: CompactionSettingsSchema.prefault({}),
  /** MCP servers whose tools join the tool set (see README "MCP servers"). */
  mcpServers: McpServersSchema.default({}),
  /** Shell hooks run on the 16 hook notifications (see README "Hooks"). */
  hooks: HooksSettingsSchema.default({}),
  debug: bool().default(false),
});

export type Config = z.output<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;
export type ServiceAiSettings = z.output<typeof ServiceAiSettingsSchema>;
export type LocalRunnerSettings = z.output<typeof LocalRunnerSettingsSchema>;
export type GgufServerSettings = z.output<typeof GgufServerSettingsSchema>;
export type VendorApiSettings = z.output<typeof VendorApiSettingsSchema>;
export type CloudHubSettings = z.output<typeof CloudHubSettingsSchema>;
export type LoopType = (typeof LOOP_TYPES)[number];

/** Parse with every default applied (e.g. `defaultConfig().localrunner.numCtx === 4096`). */
export function defaultConfig(): Config {
  return ConfigSchema.parse({});
}
