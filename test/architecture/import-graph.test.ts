/**
 * The layers and their allowed imports (README "Design"): a forbidden edge or an import cycle fails here, with the
 * file and the import that break the rule. Only relative imports cross layers; packages are checked by lint.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');

/** Layer → the layers it may import (itself always allowed). */
export const ALLOWED: Record<string, readonly string[]> = {
  'src/protocol': [],
  'src/shared': ['src/protocol'],
  'src/runtime': ['src/protocol'],
  'src/sdk': ['src/protocol'],
  'src/extension': ['src/protocol', 'src/sdk', 'src/shared'],
  'webview-ui/src': ['src/protocol', 'src/shared'],
};
const LAYERS = Object.keys(ALLOWED);

function layerOf(file: string): string | undefined {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  return LAYERS.find((layer) => rel === layer || rel.startsWith(`${layer}/`));
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  return undefined;
}

/** Every relative import of a file: static, type-only, dynamic `import()` and `require()`. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const specs = info.importedFiles.map((f) => f.fileName);
  for (const match of text.matchAll(/\brequire\(\s*['"](\.[^'"]+)['"]\s*\)/g)) specs.push(match[1] as string);
  return specs.filter((s) => s.startsWith('.'));
}

export interface Graph {
  edges: Map<string, string[]>;
  unresolved: string[];
}

export function buildGraph(): Graph {
  const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'webview-ui', 'src'))];
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of files) {
    const targets: string[] = [];
    for (const spec of importsOf(file)) {
      const target = resolveImport(file, spec);
      if (target) targets.push(target);
      else if (!spec.endsWith('.json')) unresolved.push(`${path.relative(ROOT, file)} → ${spec}`);
    }
    edges.set(file, targets);
  }
  return { edges, unresolved };
}

export function forbiddenEdges(graph: Graph): string[] {
  const bad: string[] = [];
  for (const [file, targets] of graph.edges) {
    const from = layerOf(file);
    if (from === undefined) continue;
    for (const target of targets) {
      const to = layerOf(target);
      if (to === undefined || to === from || ALLOWED[from]?.includes(to)) continue;
      bad.push(`${path.relative(ROOT, file)} imports ${path.relative(ROOT, target)} (${from} may import only ${[from, ...(ALLOWED[from] ?? [])].join(', ')})`);
    }
  }
  return bad;
}

/** Import cycles, each as the list of files in it (Tarjan's strongly connected components, iterative). */
export function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  for (const start of graph.edges.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(path.relative(ROOT, member));
        } while (member !== frame.node);
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found;
}

describe('architecture: the import graph', () => {
  const graph = buildGraph();

  it('every relative import resolves to a file', () => {
    assert.deepEqual(graph.unresolved, []);
  });

  it('no layer imports a layer it must not (protocol ← runtime, sdk ← extension; webview-ui only protocol)', () => {
    assert.deepEqual(forbiddenEdges(graph), []);
  });

  it('has no import cycles', () => {
    assert.deepEqual(cycles(graph), []);
  });

  it('the checker itself sees a forbidden edge and a cycle', () => {
    const a = path.join(ROOT, 'src/runtime/a.ts');
    const b = path.join(ROOT, 'src/runtime/b.ts');
    const sdk = path.join(ROOT, 'src/sdk/c.ts');
    const fake: Graph = { edges: new Map([[a, [b, sdk]], [b, [a]], [sdk, []]]), unresolved: [] };
    assert.equal(forbiddenEdges(fake).length, 1);
    assert.match(forbiddenEdges(fake)[0]!, /src\/runtime\/a\.ts imports src\/sdk\/c\.ts/);
    assert.deepEqual(cycles(fake), [['src/runtime/a.ts', 'src/runtime/b.ts']]);
  });
});
