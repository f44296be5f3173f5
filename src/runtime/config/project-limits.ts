/**
 * What a project's `.agentcli/config.json` may not change. A repository is not the user: its file may make the command
 * sandbox stricter, never looser. A project file that turns the sandbox off or makes it weaker than the user's, opens
 * the network, or re-admits secret-like variables to commands (`shell.env.include`) has that part ignored, with a
 * warning that names the file, the key and where the user can set it.
 */
import { SANDBOX_MODES, type SandboxMode } from '../sandbox/modes';
import { isJsonObject, type JsonObject } from './read-file';

/** Stricter modes have a higher rank. */
const STRICTNESS: Record<SandboxMode, number> = { off: 0, 'workspace-write': 1, 'read-only': 2 };

function isMode(value: unknown): value is SandboxMode {
  return typeof value === 'string' && (SANDBOX_MODES as readonly string[]).includes(value);
}

function userCanSet(key: string): string {
  return `a project file may make the sandbox stricter, never looser; set it yourself in ~/.agentcli/config.json (agentcli config set ${key} <value>)`;
}

/**
 * The project layer without what would loosen the sandbox the user has so far (`userLayer`: the files read before it).
 * Values that fail validation are left alone for the schema to report.
 */
export function withoutSandboxLoosening(project: JsonObject, userLayer: JsonObject, file: string, warn: (line: string) => void): JsonObject {
  const sandbox = project.sandbox;
  const shell = project.shell;
  let out = project;
  if (isJsonObject(sandbox)) {
    const userSandbox = isJsonObject(userLayer.sandbox) ? userLayer.sandbox : {};
    const userMode: SandboxMode = isMode(userSandbox.mode) ? userSandbox.mode : 'workspace-write';
    const kept: JsonObject = { ...sandbox };
    if (isMode(sandbox.mode) && STRICTNESS[sandbox.mode] < STRICTNESS[userMode]) {
      warn(`${file}: "sandbox.mode": "${sandbox.mode}" is ignored (yours is "${userMode}"): ${userCanSet('sandbox.mode')}`);
      delete kept.mode;
    }
    if (sandbox.network === true && userSandbox.network !== true) {
      warn(`${file}: "sandbox.network": true is ignored: ${userCanSet('sandbox.network')}`);
      delete kept.network;
    }
    out = { ...out, sandbox: kept };
  }
  if (isJsonObject(shell) && isJsonObject(shell.env) && Array.isArray(shell.env.include) && shell.env.include.length > 0) {
    warn(
      `${file}: "shell.env.include" is ignored: a project file cannot hand your secret-like variables to commands; ` +
        'list them yourself under "shell.env.include" in ~/.agentcli/config.json',
    );
    const { include: _include, ...env } = shell.env;
    out = { ...out, shell: { ...shell, env } };
  }
  return out;
}
