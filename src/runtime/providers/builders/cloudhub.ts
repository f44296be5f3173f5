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

/** The deployment URL: `baseUrl` as given when it already names a deployment, else endpoint + deployment path. */
export function cloudHubDeploymentUrl(settings: CloudHubSettings): string {
  if (settings.baseUrl) {
    const base = trimTrailingSlash(settings.baseUrl);
    if (/\/deployments\/[^/]+$/.test(new URL(base).pathname)) return base;
    if (!settings.deploymentName) {
      throw missingSetting('cloudhub.deploymentName', 'the deployment to send requests to is unknown', 'CLOUDHUB_DEPLOYMENT');
    }
    return `${base}${deploymentPath(settings.deploymentName)}`;
  }
  if (!settings.resourceName) {
    throw missingSetting(
      'cloudhub.resourceName',
      'the resource (first label of the endpoint host) is unknown; alternatively set cloudhub.baseUrl / CLOUDHUB_ENDPOINT',
    );
  }
  if (!settings.deploymentName) {
    throw missingSetting('cloudhub.deploymentName', 'the deployment to send requests to is unknown', 'CLOUDHUB_DEPLOYMENT');
  }
  return `https://${settings.resourceName}${RESOURCE_HOST_SUFFIX}${deploymentPath(settings.deploymentName)}`;
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
  const baseURL = cloudHubDeploymentUrl(settings);
  const deploymentFromUrl = decodeURIComponent(baseURL.slice(baseURL.lastIndexOf('/') + 1));
  const common = {
    id: 'cloudhub' as const,
    model: model ?? settings.model ?? settings.deploymentName ?? deploymentFromUrl,
    baseURL,
    query: { 'api-version': settings.apiVersion },
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
