/**
 * cloudhub: a cloud-hosted model deployment. Requests go to
 * `{endpoint}/openai/deployments/{deploymentName}/chat/completions?api-version={apiVersion}` with an `api-key` header.
 * The entra-id and managed-identity auth methods come with a later issue.
 */
import type { CloudHubSettings } from '../../config/schema';
import type { OpenAICompatibleOptions } from '../openai-compatible/provider';
import { missingSetting, notImplemented, trimTrailingSlash } from './config-errors';

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

export function cloudHubOptions(settings: CloudHubSettings, model: string | undefined): OpenAICompatibleOptions {
  if (settings.authMethod !== 'api-key') {
    throw notImplemented(
      `cloudhub.authMethod "${settings.authMethod}"`,
      'use authMethod "api-key" with cloudhub.apiKey (or CLOUDHUB_KEY) for now: `agentcli config set cloudhub.authMethod api-key`',
    );
  }
  const baseURL = cloudHubDeploymentUrl(settings);
  if (!settings.apiKey) throw missingSetting('cloudhub.apiKey', 'the deployment needs an API key', 'CLOUDHUB_KEY');
  const deploymentFromUrl = decodeURIComponent(baseURL.slice(baseURL.lastIndexOf('/') + 1));
  return {
    id: 'cloudhub',
    model: model ?? settings.model ?? settings.deploymentName ?? deploymentFromUrl,
    baseURL,
    headers: { 'api-key': settings.apiKey },
    query: { 'api-version': settings.apiVersion },
    modelListing: 'configured',
  };
}
