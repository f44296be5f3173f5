/**
 * Bearer tokens for cloudhub's `entra-id` (OAuth 2.0 client credentials) and `managed-identity` auth methods,
 * obtained with `@azure/identity` and cached until shortly before they expire.
 */
import type { TokenCredential, TokenCredentialOptions } from '@azure/identity';
import type { CloudHubSettings } from '../../config/schema';
import { redactText, type SecretSet } from '../../debug/redact';
import type { DebugSink } from '../../debug/debug-fetch';
import { missingSetting } from '../builders/config-errors';
import { ProviderError } from '../types';

/**
 * The token audience of the cloud that hosts cloudhub deployments. The spec (000 §5.8) requires tokens of that
 * cloud's identity platform, and its model deployments only accept tokens issued for this resource.
 */
export const CLOUDHUB_TOKEN_SCOPE = 'https://cognitiveservices.azure.com/.default';

/** A cached token is renewed this long before it expires, so a request never carries one that expires in flight. */
export const TOKEN_REFRESH_MARGIN_MS = 2 * 60 * 1000;

type PipelinePolicy = NonNullable<TokenCredentialOptions['additionalPolicies']>[number]['policy'];

export interface TokenSource {
  getToken(): Promise<string>;
}

/** Where the identity endpoints are (tests point them at local stubs) and how to trust them. */
export interface CloudHubAuthTuning {
  /** Authority host for entra-id (default: the identity library's public cloud host). Must be https. */
  authorityHost?: string;
  /** Extra CA certificate (PEM) trusted for the identity endpoints. */
  tlsCa?: string;
  /** Replaces the credential entirely (embedding hosts with their own sign-in). */
  credential?: TokenCredential;
  now?: () => number;
}

function debugPolicy(sink: DebugSink, secrets: SecretSet): PipelinePolicy {
  return {
    name: 'agentcliDebugLog',
    async sendRequest(request, next) {
      const url = redactText(request.url, secrets).replace(/([?&](client_secret|assertion)=)[^&]*/gi, '$1[redacted]');
      const started = performance.now();
      sink(`[agentcli debug] cloudhub identity → ${request.method} ${url}`);
      const response = await next(request);
      sink(`[agentcli debug] cloudhub identity ← ${response.status} ${request.method} ${url} in ${Math.round(performance.now() - started)} ms`);
      return response;
    },
  };
}

function buildCredential(settings: CloudHubSettings, tuning: CloudHubAuthTuning, debugSink: DebugSink | undefined, secrets: SecretSet): TokenCredential {
  if (tuning.credential) return tuning.credential;
  const common = {
    ...(tuning.tlsCa ? { tlsOptions: { ca: tuning.tlsCa } } : {}),
    ...(debugSink ? { additionalPolicies: [{ policy: debugPolicy(debugSink, secrets), position: 'perRetry' as const }] } : {}),
  };
  // Loaded on first use: the identity library pulls in the whole HTTP stack, which no other provider needs at startup.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ClientSecretCredential, ManagedIdentityCredential } = require('@azure/identity') as typeof import('@azure/identity');
  if (settings.authMethod === 'entra-id') {
    if (!settings.tenantId) throw missingSetting('cloudhub.tenantId', 'entra-id needs the identity tenant', 'CLOUDHUB_TENANT_ID');
    if (!settings.clientId) throw missingSetting('cloudhub.clientId', 'entra-id needs the application (client) id', 'CLOUDHUB_CLIENT_ID');
    if (!settings.clientSecret) {
      throw missingSetting('cloudhub.clientSecret', 'entra-id needs the application secret', 'CLOUDHUB_CLIENT_SECRET');
    }
    return new ClientSecretCredential(settings.tenantId, settings.clientId, settings.clientSecret, {
      ...common,
      ...(tuning.authorityHost ? { authorityHost: tuning.authorityHost, disableInstanceDiscovery: true } : {}),
    });
  }
  // A clientId with managed-identity selects a user-assigned identity; without it the system-assigned one is used.
  return settings.clientId ? new ManagedIdentityCredential(settings.clientId, common) : new ManagedIdentityCredential(common);
}

const IMDS_TOKEN_URL = 'http://169.254.169.254/metadata/identity/oauth2/token';

/**
 * Where the identity library asks for a managed-identity token, picked from the environment in its order
 * (workload identity, App Service / Service Fabric, Machine Learning / Cloud Shell, Arc, pod identity, then the
 * instance metadata service), named with the variable that chose it. Only addresses: IDENTITY_HEADER and
 * MSI_SECRET are credentials and never named.
 */
export function managedIdentityEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  if (env['AZURE_FEDERATED_TOKEN_FILE']) return `the workload identity token exchange (AZURE_FEDERATED_TOKEN_FILE ${env['AZURE_FEDERATED_TOKEN_FILE']})`;
  if (env['IDENTITY_ENDPOINT'] && (env['IDENTITY_HEADER'] || env['IMDS_ENDPOINT'])) {
    return `the identity endpoint ${env['IDENTITY_ENDPOINT']} (from IDENTITY_ENDPOINT)`;
  }
  if (env['MSI_ENDPOINT']) return `the identity endpoint ${env['MSI_ENDPOINT']} (from MSI_ENDPOINT)`;
  const podHost = env['AZURE_POD_IDENTITY_AUTHORITY_HOST'];
  if (podHost) return `the identity endpoint ${podHost.replace(/\/+$/, '')}/metadata/identity/oauth2/token (from AZURE_POD_IDENTITY_AUTHORITY_HOST)`;
  return `the instance metadata service at ${IMDS_TOKEN_URL} (no IDENTITY_ENDPOINT or MSI_ENDPOINT is set)`;
}

function tokenError(settings: CloudHubSettings, err: unknown, secrets: SecretSet): ProviderError {
  const detail = redactText(err instanceof Error ? err.message : String(err), secrets).split('\n')[0] ?? '';
  if (settings.authMethod === 'entra-id') {
    return new ProviderError(
      'auth_failed',
      `cloudhub could not get an entra-id token (tenant "${settings.tenantId ?? ''}", client "${settings.clientId ?? ''}"): ${detail}`,
      'check the identity credentials (cloudhub.tenantId / CLOUDHUB_TENANT_ID, cloudhub.clientId / CLOUDHUB_CLIENT_ID, cloudhub.clientSecret / CLOUDHUB_CLIENT_SECRET) and that the application has a role on the resource that allows using its models',
    );
  }
  return new ProviderError(
    'auth_failed',
    `cloudhub could not get a managed-identity token from ${managedIdentityEndpoint()}: ${detail}`,
    'managed-identity works only inside the cloud platform, on a workload with a managed identity that has a role on the resource; elsewhere use authMethod "api-key" or "entra-id"',
  );
}

/**
 * A token source for entra-id or managed-identity. Tokens are cached until TOKEN_REFRESH_MARGIN_MS before
 * they expire; concurrent callers share one request; every token is added to `secrets` so it is redacted.
 */
export function createCloudHubTokenSource(
  settings: CloudHubSettings,
  secrets: SecretSet,
  tuning: CloudHubAuthTuning = {},
  debugSink?: DebugSink,
): TokenSource {
  secrets.add(settings.clientSecret);
  const credential = buildCredential(settings, tuning, debugSink, secrets);
  const now = tuning.now ?? Date.now;
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const fetchToken = async (): Promise<string> => {
    let result;
    try {
      result = await credential.getToken(CLOUDHUB_TOKEN_SCOPE);
    } catch (err) {
      throw tokenError(settings, err, secrets);
    }
    if (!result?.token) throw tokenError(settings, new Error('the identity service returned no token'), secrets);
    secrets.add(result.token);
    cached = { token: result.token, expiresAt: result.expiresOnTimestamp };
    return result.token;
  };
  return {
    getToken(): Promise<string> {
      if (cached && cached.expiresAt - TOKEN_REFRESH_MARGIN_MS > now()) return Promise.resolve(cached.token);
      pending ??= fetchToken().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}
