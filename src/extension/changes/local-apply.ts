/**
 * Fallback for a pending batch the runtime no longer knows (it crashed and was restarted after proposing it):
 * the extension fetched both sides of every change when the batch became pending (change-contents.ts), so it applies
 * the user's decision itself, with the same staleness rule as the runtime: a file changed on disk since the proposal
 * is not overwritten. A change whose contents never arrived is reported failed, not guessed. A change decided per hunk
 * is written as its original with only the chosen hunks, built from the runtime's hunk list as the runtime does.
 */
import * as vscode from 'vscode';
import { applyHunks } from '../../protocol/change-hunks';
import type { ChangeBatch, ChangeContents, ChangeDecision, ChangeResult, HunkSelection } from '../../protocol/records';

async function readOrNull(uri: vscode.Uri): Promise<string | null> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return null;
    throw e;
  }
}

export async function applyLocally(
  batch: ChangeBatch,
  contents: ReadonlyMap<string, ChangeContents>,
  decision: ChangeDecision,
  changeIds: string[] = [],
  hunks: HunkSelection = {},
): Promise<ChangeResult[]> {
  const chosen = new Set(decision === 'accept_all' ? batch.changes.map((c) => c.id) : decision === 'reject_all' ? [] : changeIds);
  const results: ChangeResult[] = [];
  for (const c of batch.changes) {
    const sides = contents.get(c.id);
    const kept = Object.hasOwn(hunks, c.id) ? hunks[c.id] : undefined;
    // A change decided per hunk says which hunks were written (none unless applied).
    const tally = (applied: number[]) => (kept && sides ? { hunks: { applied, total: sides.hunks.length } } : {});
    if (!chosen.has(c.id) || kept?.length === 0) {
      results.push({ changeId: c.id, path: c.path, status: 'rejected', ...tally([]) });
      continue;
    }
    if (!sides) {
      const error = 'its contents had not reached the editor when the runtime stopped; ask the agent to make this change again';
      results.push({ changeId: c.id, path: c.path, status: 'failed', error });
      continue;
    }
    const uri = vscode.Uri.file(c.absolutePath);
    try {
      const onDisk = await readOrNull(uri);
      if (onDisk !== sides.originalContent) {
        results.push({ changeId: c.id, path: c.path, status: 'stale', error: 'the file changed on disk since the proposal', ...tally([]) });
        continue;
      }
      const only = new Set(kept);
      const proposed =
        kept && sides.originalContent !== null && sides.proposedContent !== null
          ? applyHunks(sides.originalContent, sides.proposedContent, sides.hunks, (i) => only.has(i)).content
          : sides.proposedContent;
      if (c.kind === 'delete' || proposed === null) await vscode.workspace.fs.delete(uri);
      else await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(proposed));
      results.push({ changeId: c.id, path: c.path, status: 'applied', ...tally([...only].sort((a, b) => a - b)) });
    } catch (e) {
      results.push({ changeId: c.id, path: c.path, status: 'failed', error: e instanceof Error ? e.message : String(e) });
    }
  }
  return results;
}
