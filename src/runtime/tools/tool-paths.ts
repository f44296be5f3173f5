import { resolveToolPath, type ResolvedToolPath } from '../workspace/paths';

/** Resolve a model-given path against the tool context's working directory. */
export function resolveArgPath(cwd: string, p: string): ResolvedToolPath {
  return resolveToolPath(cwd, p);
}

/** How a path is shown to the model: workspace-relative when inside, absolute otherwise. */
export function displayPath(cwd: string, absPath: string): string {
  return resolveToolPath(cwd, absPath).relative;
}

/** Sentence appended to write results so the model knows whether the change is on disk or awaiting review. */
export function writeModeNote(mode: 'proposed' | 'written'): string {
  return mode === 'proposed'
    ? 'Proposed, awaiting the user\'s review (not on disk yet; your reads see the new content).'
    : 'Written to disk.';
}

/** Count lines the way editors do: a trailing newline does not start a new line. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}
