/**
 * The environment a command gets: the runtime's own environment without secrets. The runtime's provider credentials
 * are always removed; any other variable whose name contains KEY, TOKEN, SECRET or PASSWORD is removed unless
 * `shell.env.include` re-admits it, and `shell.env.exclude` removes more (names or globs with `*` and `?`).
 */

/** The runtime's own credentials: never given to a command, whatever `shell.env.include` says. */
export const PROVIDER_CREDENTIAL_VARIABLES: readonly string[] = ['SERVICE_API_KEY', 'SERVICE_AI_API_KEY', 'VENDORAPI_API_KEY', 'CLOUDHUB_*'];

/** Names that say they hold a secret. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

/** A variable name, or a glob of one (`*` any run of characters, `?` one character). */
export const ENV_NAME_GLOB = /^[A-Za-z_*?][A-Za-z0-9_*?]*$/;

export interface ShellEnvSettings {
  include: readonly string[];
  exclude: readonly string[];
}

/**
 * One case-insensitive pattern matching any of `globs`, made once per list: every variable of the environment is
 * checked against the same lists (at each start, for masking), and compiling a pattern per name and glob cost
 * milliseconds of it.
 */
const patterns = new WeakMap<readonly string[], RegExp>();
function globsPattern(globs: readonly string[]): RegExp {
  let pattern = patterns.get(globs);
  if (pattern === undefined) {
    const bodies = globs.map((glob) => glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.'));
    pattern = bodies.length === 0 ? /$^/ : new RegExp(`^(?:${bodies.join('|')})$`, 'i');
    patterns.set(globs, pattern);
  }
  return pattern;
}

function matchesAny(name: string, globs: readonly string[]): boolean {
  return globsPattern(globs).test(name);
}

/** Is `name` one of the runtime's provider credentials? */
export function isProviderCredential(name: string): boolean {
  return matchesAny(name, PROVIDER_CREDENTIAL_VARIABLES);
}

/** Would a command not get this variable? */
export function isWithheld(name: string, settings: ShellEnvSettings): boolean {
  if (isProviderCredential(name)) return true;
  if (matchesAny(name, settings.exclude)) return true;
  return SECRET_NAME.test(name) && !matchesAny(name, settings.include);
}

/** Names a secret by its name alone (for masking): the provider credentials and the KEY/TOKEN/SECRET/PASSWORD names. */
export function hasSecretName(name: string): boolean {
  return isProviderCredential(name) || SECRET_NAME.test(name);
}

export interface CommandEnvironment {
  env: NodeJS.ProcessEnv;
  /** Names of the variables left out, sorted. */
  withheld: string[];
}

/** The environment for a command, built from `source` (normally `process.env`). */
export function commandEnvironment(source: NodeJS.ProcessEnv, settings: ShellEnvSettings): CommandEnvironment {
  const env: NodeJS.ProcessEnv = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (isWithheld(name, settings)) withheld.push(name);
    else env[name] = value;
  }
  return { env, withheld: withheld.sort() };
}
