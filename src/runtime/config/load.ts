import { dottedPath, configErrorFromIssues } from './errors';
import { environmentLayer } from './env';
import { mergeConfigLayers } from './merge';
import { projectConfigPath, userConfigPath } from './paths';
import { applyLocalRunnerPreset } from './presets';
import { withoutSandboxLoosening } from './project-limits';
import { isJsonObject, readConfigFile, type JsonObject } from './read-file';
import { ConfigSchema, type Config } from './schema';
import { closestKey, unwrapSchema } from './schema-path';
import { resolveSecretReferences, withoutSecrets } from './secrets';

export interface LoadConfigOptions {
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** No stored sign-in: skip the user file and any key in the project file; keys come from the environment. */
  bare?: boolean;
  /** false: skip `<cwd>/.agentcli/config.json` (a host that does not trust the folder, e.g. an untrusted workspace). */
  projectConfig?: boolean;
  /** Where a warning about a file goes (an unknown key); default: stderr, each distinct line once per process. */
  warn?: (line: string) => void;
}

export interface LoadedConfig {
  /** The effective configuration, defaults applied and environment references resolved. */
  config: Config;
  /** Config files that exist and were read, lowest precedence first. */
  files: string[];
  userFile: string;
  projectFile: string;
  /** Dotted key → the environment variable that set it (it overrides the files). */
  envSources: ReadonlyMap<string, string>;
}

type AnySchema = Parameters<typeof unwrapSchema>[0];

const warned = new Set<string>();
const stderrWarning = (line: string): void => {
  if (warned.has(line)) return;
  warned.add(line);
  process.stderr.write(`${line}\n`);
};

/**
 * Keys of a file the schema does not know, as `agentcli: <file>: unknown key "x" ...; did you mean "y"?` lines. They
 * stay in the file and in the config (other tools' settings are kept); a typo would otherwise be silently ignored.
 * Keys starting with `$` (`$schema`) are editor metadata.
 */
export function unknownKeyWarnings(file: string, raw: JsonObject): string[] {
  const lines: string[] = [];
  const walk = (node: JsonObject, schema: AnySchema, prefix: string) => {
    const shape = (unwrapSchema(schema)._zod.def as unknown as { shape?: Record<string, AnySchema> }).shape;
    if (!shape) return;
    const known = Object.keys(shape);
    for (const [key, value] of Object.entries(node)) {
      const child = shape[key];
      if (child !== undefined) {
        if (isJsonObject(value)) walk(value, child, `${prefix}${key}.`);
        continue;
      }
      if (key.startsWith('$')) continue;
      const suggestion = closestKey(key, known);
      const where = prefix ? ` in "${prefix.slice(0, -1)}"` : '';
      lines.push(
        `agentcli: ${file}: unknown key "${prefix}${key}" (kept, but agentcli does not use it)` +
          (suggestion ? `; did you mean "${prefix}${suggestion}"?` : `; known keys${where}: ${known.join(', ')}`),
      );
    }
  };
  walk(raw, ConfigSchema, '');
  return lines;
}

/** Check one file on its own so an error names the file it is in. */
function validateFile(file: string, raw: JsonObject): void {
  const result = ConfigSchema.safeParse(raw);
  if (!result.success) throw configErrorFromIssues(result.error.issues, raw, () => file);
}

/**
 * Effective configuration: user file < project file < environment. Objects merge deeply and
 * permission rule lists are concatenated. Throws ConfigError with the file (or variable), the
 * dotted key and what was expected.
 */
export function loadConfig(opts: LoadConfigOptions): LoadedConfig {
  const userFile = userConfigPath(opts.home);
  const projectFile = projectConfigPath(opts.cwd);
  const files: string[] = [];
  let merged: JsonObject = {};

  const layers: Array<[file: string, read: boolean]> = [
    [userFile, !opts.bare],
    [projectFile, opts.projectConfig !== false],
  ];
  for (const [file, read] of layers) {
    if (!read) continue;
    // The same path twice (cwd === home) is one file, read once.
    if (files.includes(file)) continue;
    const raw = readConfigFile(file);
    if (raw === undefined) continue;
    validateFile(file, raw);
    for (const line of unknownKeyWarnings(file, raw)) (opts.warn ?? stderrWarning)(line);
    files.push(file);
    const layer = file === projectFile && file !== userFile ? withoutSandboxLoosening(raw, merged, file, opts.warn ?? stderrWarning) : raw;
    merged = mergeConfigLayers(merged, opts.bare ? withoutSecrets(layer) : layer);
  }

  const { layer, sources } = environmentLayer(opts.env, merged, opts.warn);
  // A preset written into a file applies at load time too (not only through `config set`); explicit values win.
  const withEnv = applyLocalRunnerPreset(resolveSecretReferences(mergeConfigLayers(merged, layer), opts.env));

  const result = ConfigSchema.safeParse(withEnv);
  if (!result.success) {
    const lastFile = files[files.length - 1] ?? 'config';
    throw configErrorFromIssues(result.error.issues, withEnv, (path) => {
      const variable = sources.get(dottedPath(path));
      return variable === undefined ? lastFile : `environment variable ${variable}`;
    });
  }
  return { config: result.data, files, userFile, projectFile, envSources: sources };
}
