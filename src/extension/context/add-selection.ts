/**
 * "agentcli: Add Selection to Chat": the active editor's selection (or the whole file when nothing is selected)
 * becomes a context chip above the prompt box and is sent with the next prompt.
 */
import * as vscode from 'vscode';
import type { ContextChip } from '../../shared/chat/messages';

const MAX_SELECTION_CHARS = 100_000;

export function chipFromEditor(editor: vscode.TextEditor): ContextChip | { error: string } {
  const doc = editor.document;
  const rel = vscode.workspace.asRelativePath(doc.uri, false);
  const sel = editor.selection;
  if (sel.isEmpty) {
    // no selection: the whole file, with its text when it is small enough to send
    const all = doc.getText();
    return { id: `file:${rel}`, kind: 'file', path: rel, ...(all.length <= MAX_SELECTION_CHARS ? { text: all } : {}) };
  }
  const text = doc.getText(sel);
  if (text.length > MAX_SELECTION_CHARS) {
    return { error: `the selection has ${text.length} characters; select at most ${MAX_SELECTION_CHARS}, or mention the file with @${rel}` };
  }
  const startLine = sel.start.line + 1;
  // a selection ending at column 0 of the next line ends on the line before
  const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
  return { id: `sel:${rel}:${startLine}-${endLine}`, kind: 'selection', path: rel, text, startLine, endLine };
}

export function registerAddSelection(add: (chip: ContextChip) => Promise<void>): vscode.Disposable {
  return vscode.commands.registerCommand('agentcli.addSelectionToChat', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Open a file and select some text first.');
      return;
    }
    const chip = chipFromEditor(editor);
    if ('error' in chip) {
      void vscode.window.showWarningMessage(`${chip.error.charAt(0).toUpperCase()}${chip.error.slice(1)}.`);
      return;
    }
    await add(chip);
  });
}
