import { ConfigError } from './errors';
import { PROVIDER_IDS } from './schema';
import { isJsonObject, type JsonObject } from './read-file';
import { envReferenceName } from './secrets';

/**
 * Environment overrides (spec 000 §2.4). `SERVICE_BASE_URL` is our addition: it points the hosted
 * provider at another address (a proxy or a local test server).
 */
export interface EnvLayer {
  /** Values to merge over the files. */
  layer: JsonObject;
  /** Dotted key → the variable it came from, so a bad value is reported by variable name. */
  sources: Map<string, string>;
}

/** Variables that always win over the files. */
const DIRECT: ReadonlyArray<readonly [variable: string, section: string | undefined, key: string]> = [
  ['SERVICE_MODEL', undefined, 'model'],
  ['SERVICE_BASE_URL', 'serviceai', 'baseUrl'],
  ['CLOUDHUB_KEY', 'cloudhub', 'apiKey'],
  ['CLOUDHUB_ENDPOINT', 'cloudhub', 'baseUrl'],
  ['CLOUDHUB_DEPLOYMENT', 'cloudhub', 'deploymentName'],
  ['CLOUDHUB_API_VERSION', 'cloudhub', 'apiVersion'],
  ['CLOUDHUB_TENANT_ID', 'cloudhub', 'tenantId'],
  ['CLOUDHUB_CLIENT_ID', 'cloudhub', 'clientId'],
  ['CLOUDHUB_CLIENT_SECRET', 'cloudhub', 'clientSecret'],
];

function nonEmpty(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parseBoolean(name: string, value: string): boolean {
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new ConfigError(`${name} must be "true" or "false" (got ${JSON.stringify(value)})`, name);
}

/** A host like `127.0.0.1:11434` gets `http://` so it is a usable URL. */
function withScheme(host: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`;
}

/** Build the environment layer; `files` is the merged file layer (some variables only fill gaps). */
export function environmentLayer(env: NodeJS.ProcessEnv, files: JsonObject): EnvLayer {
  const layer: JsonObject = {};
  const sources = new Map<string, string>();
  const put = (variable: string, section: string | undefined, key: string, value: unknown): void => {
    if (section === undefined) {
      layer[key] = value;
    } else {
      const target = isJsonObject(layer[section]) ? (layer[section] as JsonObject) : {};
      target[key] = value;
      layer[section] = target;
    }
    sources.set(section === undefined ? key : `${section}.${key}`, variable);
  };

  const provider = nonEmpty(env, 'SERVICE_PROVIDER');
  if (provider !== undefined) {
    if (!(PROVIDER_IDS as readonly string[]).includes(provider)) {
      throw new ConfigError(
        `SERVICE_PROVIDER must be one of ${PROVIDER_IDS.join(', ')} (got ${JSON.stringify(provider)})`,
        'SERVICE_PROVIDER',
      );
    }
    put('SERVICE_PROVIDER', undefined, 'provider', provider);
  }

  const serviceKeyVariable = nonEmpty(env, 'SERVICE_API_KEY') !== undefined ? 'SERVICE_API_KEY' : 'SERVICE_AI_API_KEY';
  const serviceKey = nonEmpty(env, serviceKeyVariable);
  if (serviceKey !== undefined) put(serviceKeyVariable, 'serviceai', 'apiKey', serviceKey);

  const debug = nonEmpty(env, 'SERVICE_DEBUG');
  if (debug !== undefined) put('SERVICE_DEBUG', undefined, 'debug', parseBoolean('SERVICE_DEBUG', debug));

  for (const [variable, section, key] of DIRECT) {
    const value = nonEmpty(env, variable);
    if (value !== undefined) put(variable, section, key, value);
  }

  const vendorKey = nonEmpty(env, 'VENDORAPI_API_KEY');
  const fileVendorKey = isJsonObject(files.vendorapi) ? files.vendorapi.apiKey : undefined;
  if (vendorKey !== undefined && (fileVendorKey === undefined || envReferenceName(fileVendorKey) === 'VENDORAPI_API_KEY')) {
    put('VENDORAPI_API_KEY', 'vendorapi', 'apiKey', vendorKey);
  }

  const runnerHost = nonEmpty(env, 'LOCALRUNNER_HOST');
  const fileRunnerUrl = isJsonObject(files.localrunner) ? files.localrunner.baseUrl : undefined;
  if (runnerHost !== undefined && fileRunnerUrl === undefined) {
    put('LOCALRUNNER_HOST', 'localrunner', 'baseUrl', withScheme(runnerHost));
  }

  return { layer, sources };
}
