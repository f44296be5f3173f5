/**
 * cloudhub: a cloud-hosted model deployment. Requests go to
 * `{endpoint}/openai/deployments/{deploymentName}/chat/completions?api-version={apiVersion}`, authenticated by
 * `authMethod`: an `api-key` header, or a Bearer token from entra-id (client credentials) or managed-identity.
 */
import type { CloudHubSettings } from '../../config/schema';
import type { OpenAICompatibleOptions } from '../openai-compatible/provider';
import { missingSetting, trimTrailingSlash } from './config-errors';
import { SecretSet } from '../../debug/redact';
import type { DebugSink } from '../../debug/debug-fetch';
import { createCloudHubTokenSource, type CloudHubAuthTuning } from '../cloudhub/token-source';

/** The host of a cloudhub resource is `{resourceName}` followed by this suffix (spec: the first label of the host). */
const RESOURCE_HOST_SUFFIX = '.openai.azure.com';

function deploymentPath(deploymentName: string): string {
  return `/openai/deployments/${encodeURIComponent(deploymentName)}`;
}

/** The `apiVersion` default (spec §9.2); a `?api-version=` in `baseUrl` replaces it, an explicitly different value wins. */
export const CLOUDHUB_DEFAULT_API_VERSION = '2024-10-21';

/** Where requests go: the deployment URL (no query) and the query parameters sent with each request. */
export interface CloudHubEndpoint {
  deploymentUrl: string;
  query: Record<string, string>;
}

const DEPLOYMENT_PATH_END = /\/deployments\/[^/]+$/;
const CHAT_COMPLETIONS_END = /\/chat\/completions$/;

/**
 * `baseUrl` is a full endpoint override (spec §2.4.4): the resource endpoint (the deployment path is appended), the
 * deployment URL (`…/deployments/<name>`), or the portal's full target address
 * (`…/deployments/<name>/chat/completions?api-version=…`), each with or without a trailing slash. Its query
 * parameters are sent with every request; its `api-version` is used unless `apiVersion` was set to another value.
 */
function endpointFromBaseUrl(settings: CloudHubSettings, baseUrl: string): CloudHubEndpoint {
  const url = new URL(baseUrl);
  const query: Record<string, string> = Object.fromEntries(url.searchParams);
  const apiVersion = settings.apiVersion;
  query['api-version'] =
    apiVersion === CLOUDHUB_DEFAULT_API_VERSION ? (url.searchParams.get('api-version') ?? apiVersion) : apiVersion;
  const path = trimTrailingSlash(url.pathname).replace(CHAT_COMPLETIONS_END, '');
  const base = `${url.origin}${path}`;
  if (DEPLOYMENT_PATH_END.test(path)) return { deploymentUrl: base, query };
  if (!settings.deploymentName) {
    throw missingSetting(
      'cloudhub.deploymentName',
      `the deployment to send requests to is unknown (cloudhub.baseUrl ${url.origin}${url.pathname} does not end in /deployments/<name>)`,
      'CLOUDHUB_DEPLOYMENT',
    );
  }
  return { deploymentUrl: `${base}${deploymentPath(settings.deploymentName)}`, query };
}

/** The deployment URL and query: from `baseUrl` when set, else from resourceName and deploymentName. */
export function cloudHubEndpoint(settings: CloudHubSettings): CloudHubEndpoint {
  if (settings.baseUrl) return endpointFromBaseUrl(settings, settings.baseUrl);
  if (!settings.resourceName) {
    throw missingSetting(
      'cloudhub.resourceName',
      'the resource (first label of the endpoint host) is unknown; alternatively set cloudhub.baseUrl / CLOUDHUB_ENDPOINT',
    );
  }
  if (!settings.deploymentName) {
    throw missingSetting('cloudhub.deploymentName', 'the deployment to send requests to is unknown', 'CLOUDHUB_DEPLOYMENT');
  }
  return {
    deploymentUrl: `https://${settings.resourceName}${RESOURCE_HOST_SUFFIX}${deploymentPath(settings.deploymentName)}`,
    query: { 'api-version': settings.apiVersion },
  };
}

/** The deployment URL (without query); see {@link cloudHubEndpoint}. */
export function cloudHubDeploymentUrl(settings: CloudHubSettings): string {
  return cloudHubEndpoint(settings).deploymentUrl;
}

export interface CloudHubAuthContext {
  /** Collects the client secret and every token obtained, for redaction. */
  secrets: SecretSet;
  tuning?: CloudHubAuthTuning;
  debugSink?: DebugSink;
}

export function cloudHubOptions(
  settings: CloudHubSettings,
  model: string | undefined,
  auth: CloudHubAuthContext = { secrets: new SecretSet() },
): OpenAICompatibleOptions {
  const { deploymentUrl: baseURL, query } = cloudHubEndpoint(settings);
  const deploymentFromUrl = decodeURIComponent(baseURL.slice(baseURL.lastIndexOf('/') + 1));
  const common = {
    id: 'cloudhub' as const,
    model: model ?? settings.model ?? deploymentFromUrl,
    baseURL,
    query,
    modelListing: 'configured' as const,
    secrets: auth.secrets,
  };
  if (settings.authMethod === 'api-key') {
    if (!settings.apiKey) throw missingSetting('cloudhub.apiKey', 'the deployment needs an API key', 'CLOUDHUB_KEY');
    return { ...common, headers: { 'api-key': settings.apiKey } };
  }
  const source = createCloudHubTokenSource(settings, auth.secrets, auth.tuning, auth.debugSink);
  return { ...common, getToken: () => source.getToken() };
}
