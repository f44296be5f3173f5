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

const DEBUG_ON = ['true', '1', 'yes', 'on'];
const DEBUG_OFF = ['false', '0', 'no', 'off'];

/** Where a warning about an environment variable goes; each distinct warning is written once per process. */
export type EnvWarning = (line: string) => void;
const warned = new Set<string>();
const stderrWarning: EnvWarning = (line) => {
  if (warned.has(line)) return;
  warned.add(line);
  process.stderr.write(`${line}\n`);
};

/**
 * SERVICE_DEBUG (spec §2.4: `true` turns on verbose logging). A debug switch must not fail a run: an unknown value
 * is ignored with a one-line warning naming the variable and the accepted values.
 */
function parseDebug(value: string, warn: EnvWarning): boolean | undefined {
  const lower = value.toLowerCase();
  if (DEBUG_ON.includes(lower)) return true;
  if (DEBUG_OFF.includes(lower)) return false;
  warn(
    `agentcli: warning: SERVICE_DEBUG=${JSON.stringify(value)} is ignored; set it to ${DEBUG_ON.join(', ')} (logging on) or ${DEBUG_OFF.join(', ')} (off)`,
  );
  return undefined;
}

/** A host like `127.0.0.1:11434` gets `http://` so it is a usable URL. */
function withScheme(host: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`;
}

const LOCALRUNNER_PORT = '11434';
/** Addresses a server listens on ("all interfaces") that are not an address to connect to: the same machine's is used. */
const WILDCARD_HOSTS: Readonly<Record<string, string>> = { '0.0.0.0': '127.0.0.1', '[::]': '[::1]' };

/**
 * LOCALRUNNER_HOST as a URL, read like the runner reads its own host variable, with two friendlier choices:
 * `localhost`, `myhost`, `:8080` (→ 127.0.0.1) and `http://myhost` without a port get the runner's port 11434 (the
 * runner serves plain HTTP on it; an `https://` address is a proxy and keeps its own default port), and a
 * listen-on-all address (`0.0.0.0`, `[::]`) becomes the same machine's address, which works on every system.
 * A value that is not a URL is returned with a scheme so the config check names LOCALRUNNER_HOST.
 */
export function localRunnerHostUrl(raw: string): string {
  const value = withScheme(raw.trim().startsWith(':') ? `127.0.0.1${raw.trim()}` : raw.trim());
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  const authority = (/^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(value)?.[1] ?? '').replace(/^.*@/, '');
  const explicitPort = /^(\[[^\]]*\]|[^:[\]]*):\d+$/.test(authority);
  if (!explicitPort && url.protocol === 'http:') url.port = LOCALRUNNER_PORT;
  const local = WILDCARD_HOSTS[url.hostname];
  if (local !== undefined) url.hostname = local;
  return url.href.replace(/\/+$/, '');
}

/** Whether a file's localrunner.baseUrl is absent or the default address (spec §2.4.1), which LOCALRUNNER_HOST replaces. */
function isDefaultRunnerUrl(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === 'http:' &&
    (url.hostname === 'localhost' || url.hostname === '127.0.0.1') &&
    url.port === LOCALRUNNER_PORT &&
    url.pathname.replace(/\/+$/, '') === '' &&
    url.search === ''
  );
}

/** Build the environment layer; `files` is the merged file layer (some variables only fill gaps). */
export function environmentLayer(env: NodeJS.ProcessEnv, files: JsonObject, warn: EnvWarning = stderrWarning): EnvLayer {
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
  const debugOn = debug === undefined ? undefined : parseDebug(debug, warn);
  if (debugOn !== undefined) put('SERVICE_DEBUG', undefined, 'debug', debugOn);

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
  if (runnerHost !== undefined && isDefaultRunnerUrl(fileRunnerUrl)) {
    put('LOCALRUNNER_HOST', 'localrunner', 'baseUrl', localRunnerHostUrl(runnerHost));
  }

  return { layer, sources };
}
