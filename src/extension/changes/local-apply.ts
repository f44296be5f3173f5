/**
 * Fallback for a pending batch the runtime no longer knows (it crashed and was restarted after proposing it):
 * the extension still holds both sides of every change, so it applies the user's decision itself, with the same
 * staleness rule as the runtime: a file changed on disk since the proposal is not overwritten.
 */
import * as vscode from 'vscode';
import type { ChangeBatch, ChangeDecision, ChangeResult } from '../../protocol/records';

async function readOrNull(uri: vscode.Uri): Promise<string | null> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return null;
    throw e;
  }
}

export async function applyLocally(batch: ChangeBatch, decision: ChangeDecision, changeIds: string[] = []): Promise<ChangeResult[]> {
  const chosen = new Set(decision === 'accept_all' ? batch.changes.map((c) => c.id) : decision === 'reject_all' ? [] : changeIds);
  const results: ChangeResult[] = [];
  for (const c of batch.changes) {
    if (!chosen.has(c.id)) {
      results.push({ changeId: c.id, path: c.path, status: 'rejected' });
      continue;
    }
    const uri = vscode.Uri.file(c.absolutePath);
    try {
      const onDisk = await readOrNull(uri);
      if (onDisk !== c.originalContent) {
        results.push({ changeId: c.id, path: c.path, status: 'stale', error: 'the file changed on disk since the proposal' });
        continue;
      }
      if (c.kind === 'delete' || c.proposedContent === null) await vscode.workspace.fs.delete(uri);
      else await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(c.proposedContent));
      results.push({ changeId: c.id, path: c.path, status: 'applied' });
    } catch (e) {
      results.push({ changeId: c.id, path: c.path, status: 'failed', error: e instanceof Error ? e.message : String(e) });
    }
  }
  return results;
}
