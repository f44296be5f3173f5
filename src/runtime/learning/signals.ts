/**
 * The facts skill recommendations are scored from, read from the project itself: the files the `.gitignore` rules keep
 * (at most MAX_SCANNED_FILES, vendored folders skipped), languages by file count, and the root manifests
 * (`package.json`, `pyproject.toml`, `requirements*.txt`, `go.mod`, `Cargo.toml`, `pom.xml`, `build.gradle*`).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { IgnoreRules } from '../workspace/ignore-rules';
import { walkFiles } from '../workspace/walk';

/** Most files one scan looks at: enough for a large repository, bounded for a huge one. */
export const MAX_SCANNED_FILES = 20_000;
/** Largest manifest read (a bigger one is skipped as not a real manifest). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** Folders of installed or built code: never the project's own signals. */
const VENDORED = new Set(['node_modules', 'vendor', '.venv', 'venv', '__pycache__', 'target', 'dist', 'build', 'out', '.agentcli', '.tox', '.gradle']);

const LANGUAGES: Record<string, string> = {
  '.ts': 'TypeScript', '.tsx': 'TypeScript', '.mts': 'TypeScript', '.cts': 'TypeScript',
  '.js': 'JavaScript', '.jsx': 'JavaScript', '.mjs': 'JavaScript', '.cjs': 'JavaScript',
  '.py': 'Python', '.go': 'Go', '.rs': 'Rust', '.java': 'Java', '.kt': 'Kotlin', '.rb': 'Ruby', '.cs': 'C#',
  '.c': 'C', '.h': 'C', '.cpp': 'C++', '.cc': 'C++', '.hpp': 'C++', '.php': 'PHP', '.swift': 'Swift', '.vue': 'Vue',
};

export interface NpmManifest {
  name?: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
}

export interface ProjectSignals {
  /** Files kept by the ignore rules, relative, with `/` separators. */
  files: string[];
  truncated: boolean;
  /** Source files per language, and their total. */
  languages: Map<string, number>;
  sourceFiles: number;
  npm?: NpmManifest;
  /** Python packages named in pyproject.toml and requirements*.txt (lower case), with the file naming each. */
  python: Map<string, string>;
  go?: { module: string; version?: string };
  cargo?: { name?: string; dependencies: string[] };
  /** Build files of the JVM found at the root. */
  jvm: string[];
}

class ScanRules extends IgnoreRules {
  override async ignoresEntry(absPath: string, isDir: boolean): Promise<boolean> {
    if (isDir && VENDORED.has(path.basename(absPath))) return true;
    return super.ignoresEntry(absPath, isDir);
  }
}

async function readSmall(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > MAX_MANIFEST_BYTES) return undefined;
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function parseNpm(text: string | undefined): NpmManifest | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  return {
    ...(typeof o.name === 'string' ? { name: o.name } : {}),
    dependencies: stringRecord(o.dependencies),
    devDependencies: stringRecord(o.devDependencies),
    scripts: stringRecord(o.scripts),
  };
}

/** A requirement's package name: `Django>=4`, `pytest[extra]==8`, `"fastapi (>=0.1)"` → django, pytest, fastapi. */
function requirementName(spec: string): string | undefined {
  const m = /^\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec);
  return m?.[1]?.toLowerCase().replace(/_/g, '-');
}

function pythonPackages(files: Array<[string, string | undefined]>): Map<string, string> {
  const found = new Map<string, string>();
  for (const [file, text] of files) {
    if (text === undefined) continue;
    const lines = text.split('\n');
    if (file.endsWith('.txt')) {
      for (const line of lines) {
        if (/^\s*(#|-)/.test(line)) continue;
        const name = requirementName(line);
        if (name && !found.has(name)) found.set(name, file);
      }
      continue;
    }
    // pyproject.toml: the arrays `dependencies`, `requires` and those of dependency tables (PEP 621, PEP 735), and
    // the keys of Poetry-style tables (`[tool.poetry.dependencies]`: `fastapi = "^0.110"`).
    let table = '';
    let inArray = false;
    const add = (name: string | undefined) => {
      const key = name?.toLowerCase().replace(/_/g, '-');
      if (key && !found.has(key)) found.set(key, file);
    };
    for (const line of lines) {
      const header = inArray ? undefined : /^\s*\[+([^[\]]+)\]+\s*(#.*)?$/.exec(line)?.[1];
      if (header !== undefined) {
        table = header.trim();
        continue;
      }
      const depTable = /dependenc/.test(table);
      let values = '';
      const keyed: RegExpExecArray | null = inArray ? null : /^\s*([A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line);
      if (inArray) {
        values = line;
        if (line.includes(']')) inArray = false;
      } else if (keyed) {
        const key = keyed[1] ?? '';
        const rest: string = keyed[2] ?? '';
        if (/^(dependencies|requires|dev-dependencies)$/.test(key) || (depTable && rest.trimStart().startsWith('['))) {
          values = rest;
          inArray = rest.includes('[') && !rest.includes(']');
        } else if (depTable && !/optional-dependencies$/.test(table) && table !== 'dependency-groups' && key !== 'python') {
          add(key);
        }
      }
      for (const quoted of values.matchAll(/["']([A-Za-z0-9][A-Za-z0-9._-]*)/g)) add(quoted[1]);
    }
  }
  return found;
}

function parseGoMod(text: string | undefined): ProjectSignals['go'] {
  if (text === undefined) return undefined;
  const module = /^module\s+(\S+)/m.exec(text)?.[1];
  if (!module) return undefined;
  const version = /^go\s+(\S+)/m.exec(text)?.[1];
  return { module, ...(version ? { version } : {}) };
}

function parseCargo(text: string | undefined): ProjectSignals['cargo'] {
  if (text === undefined) return undefined;
  let table = '';
  let name: string | undefined;
  const dependencies: string[] = [];
  for (const line of text.split('\n')) {
    const header = /^\s*\[([^\]]+)\]/.exec(line)?.[1];
    if (header !== undefined) {
      table = header.trim();
      continue;
    }
    const key = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1];
    if (!key) continue;
    if (table === 'package' && key === 'name') name = /=\s*"([^"]+)"/.exec(line)?.[1];
    if (/(^|\.)(dev-)?dependencies$/.test(table)) dependencies.push(key);
  }
  return { ...(name ? { name } : {}), dependencies };
}

/** Reads the project's signals below `cwd`. */
export async function scanProject(cwd: string, signal?: AbortSignal): Promise<ProjectSignals> {
  const root = path.resolve(cwd);
  const walked = await walkFiles({ base: root, rules: new ScanRules(root), maxFiles: MAX_SCANNED_FILES, ...(signal ? { signal } : {}) });
  const files = walked.files.map((f) => path.relative(root, f).split(path.sep).join('/')).sort();
  const languages = new Map<string, number>();
  let sourceFiles = 0;
  for (const f of files) {
    const language = LANGUAGES[path.extname(f).toLowerCase()];
    if (!language || f.endsWith('.d.ts')) continue;
    languages.set(language, (languages.get(language) ?? 0) + 1);
    sourceFiles++;
  }
  const read = (rel: string) => readSmall(path.join(root, rel));
  const requirementFiles = files.filter((f) => /^requirements[\w.-]*\.txt$/.test(f));
  const pyFiles = ['pyproject.toml', ...requirementFiles].filter((f) => files.includes(f));
  const npm = parseNpm(files.includes('package.json') ? await read('package.json') : undefined);
  const go = parseGoMod(files.includes('go.mod') ? await read('go.mod') : undefined);
  const cargo = parseCargo(files.includes('Cargo.toml') ? await read('Cargo.toml') : undefined);
  return {
    files,
    truncated: walked.truncated,
    languages,
    sourceFiles,
    ...(npm ? { npm } : {}),
    python: pythonPackages(await Promise.all(pyFiles.map(async (f): Promise<[string, string | undefined]> => [f, await read(f)]))),
    ...(go ? { go } : {}),
    ...(cargo ? { cargo } : {}),
    jvm: files.filter((f) => ['pom.xml', 'build.gradle', 'build.gradle.kts'].includes(f)),
  };
}
