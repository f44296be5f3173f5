/**
 * Fallback for a pending batch the runtime no longer knows (it crashed and was restarted after proposing it):
 * the extension fetched both sides of every change when the batch became pending (change-contents.ts), so it applies
 * the user's decision itself, with the same staleness rule as the runtime: a file changed on disk since the proposal
 * is not overwritten. A change whose contents never arrived is reported failed, not guessed.
 */
import * as vscode from 'vscode';
import type { ChangeBatch, ChangeContents, ChangeDecision, ChangeResult } from '../../protocol/records';

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
): Promise<ChangeResult[]> {
  const chosen = new Set(decision === 'accept_all' ? batch.changes.map((c) => c.id) : decision === 'reject_all' ? [] : changeIds);
  const results: ChangeResult[] = [];
  for (const c of batch.changes) {
    if (!chosen.has(c.id)) {
      results.push({ changeId: c.id, path: c.path, status: 'rejected' });
      continue;
    }
    const sides = contents.get(c.id);
    if (!sides) {
      const error = 'its contents had not reached the editor when the runtime stopped; ask the agent to make this change again';
      results.push({ changeId: c.id, path: c.path, status: 'failed', error });
      continue;
    }
    const uri = vscode.Uri.file(c.absolutePath);
    try {
      const onDisk = await readOrNull(uri);
      if (onDisk !== sides.originalContent) {
        results.push({ changeId: c.id, path: c.path, status: 'stale', error: 'the file changed on disk since the proposal' });
        continue;
      }
      if (c.kind === 'delete' || sides.proposedContent === null) await vscode.workspace.fs.delete(uri);
      else await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(sides.proposedContent));
      results.push({ changeId: c.id, path: c.path, status: 'applied' });
    } catch (e) {
      results.push({ changeId: c.id, path: c.path, status: 'failed', error: e instanceof Error ? e.message : String(e) });
    }
  }
  return results;
}
