/**
 * Runs the editor-hosted tools against the real editor (diagnostics, editors, language services) and answers each
 * `mcp_invocation` with exactly one `respondToMcpInvocation`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EventOf } from '../../protocol/events';
import type { RuntimeClient } from '../../sdk/client';
import {
  findTool,
  formatDiagnostics,
  formatLocations,
  positionArgs,
  SEVERITY_ORDER,
  severityArg,
  stringArg,
  ToolArgumentError,
  type PlainDiagnostic,
  type PlainLocation,
  type Severity,
} from './tool-descriptors';

const SEVERITY: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};
const MAX_SELECTION_CHARS = 4000;

function root(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

function resolveUri(p: string): vscode.Uri {
  if (path.isAbsolute(p)) return vscode.Uri.file(p);
  const r = root();
  if (!r) throw new ToolArgumentError(`"${p}" is relative but no workspace folder is open; give an absolute path`);
  return vscode.Uri.joinPath(r, p.replace(/^\.\//, ''));
}

function display(uri: vscode.Uri): string {
  const rel = vscode.workspace.asRelativePath(uri, false);
  return uri.scheme === 'file' || uri.scheme === 'vscode-remote' ? rel : uri.toString();
}

async function previewLine(uri: vscode.Uri, line: number): Promise<string | undefined> {
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    return line < doc.lineCount ? doc.lineAt(line).text.trim().slice(0, 160) : undefined;
  } catch {
    return undefined;
  }
}

async function toPlain(locs: (vscode.Location | vscode.LocationLink)[] | undefined): Promise<PlainLocation[]> {
  const out: PlainLocation[] = [];
  for (const l of (locs ?? []).slice(0, 200)) {
    const uri = 'targetUri' in l ? l.targetUri : l.uri;
    const range = 'targetUri' in l ? (l.targetSelectionRange ?? l.targetRange) : l.range;
    out.push({ path: display(uri), line: range.start.line + 1, column: range.start.character + 1, preview: await previewLine(uri, range.start.line) });
  }
  return out;
}

export async function runEditorTool(name: string, args: unknown): Promise<string> {
  const tool = findTool(name);
  if (!tool) throw new ToolArgumentError(`unknown editor tool "${name}"`);
  switch (tool.name) {
    case 'diagnostics': {
      const p = stringArg(args, 'path', false);
      const min = SEVERITY_ORDER.indexOf(severityArg(args));
      const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = p ? [[resolveUri(p), vscode.languages.getDiagnostics(resolveUri(p))]] : vscode.languages.getDiagnostics();
      const plain: PlainDiagnostic[] = [];
      for (const [uri, diags] of entries) {
        for (const d of diags) {
          const severity = SEVERITY[d.severity];
          if (SEVERITY_ORDER.indexOf(severity) > min) continue;
          const code = typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code);
          plain.push({ path: display(uri), line: d.range.start.line + 1, column: d.range.start.character + 1, severity, message: d.message, source: d.source, code });
        }
      }
      return formatDiagnostics(plain, p ?? 'the workspace');
    }
    case 'active_editor': {
      const ed = vscode.window.activeTextEditor;
      if (!ed) return 'No text editor is active.';
      const sel = ed.selection;
      const text = ed.document.getText(sel);
      const vis = ed.visibleRanges[0];
      return [
        `file: ${display(ed.document.uri)}`,
        `language: ${ed.document.languageId}`,
        `lines: ${ed.document.lineCount}${ed.document.isDirty ? ' (unsaved changes)' : ''}`,
        sel.isEmpty
          ? `cursor: line ${sel.active.line + 1}, column ${sel.active.character + 1}`
          : `selection: ${sel.start.line + 1}:${sel.start.character + 1}-${sel.end.line + 1}:${sel.end.character + 1}`,
        vis ? `visible lines: ${vis.start.line + 1}-${vis.end.line + 1}` : undefined,
        sel.isEmpty ? undefined : `selected text:\n${text.length > MAX_SELECTION_CHARS ? `${text.slice(0, MAX_SELECTION_CHARS)}\n… (${text.length} characters, cut)` : text}`,
      ]
        .filter((l) => l !== undefined)
        .join('\n');
    }
    case 'open_editors': {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      const lines: string[] = [];
      for (const group of vscode.window.tabGroups.all) {
        for (const tab of group.tabs) {
          const input = tab.input;
          const uri = input instanceof vscode.TabInputText ? input.uri : input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
          if (!uri) continue;
          const marks = [uri.toString() === active ? 'active' : undefined, tab.isDirty ? 'unsaved' : undefined, input instanceof vscode.TabInputTextDiff ? 'diff' : undefined].filter(Boolean);
          lines.push(`${display(uri)}${marks.length ? ` (${marks.join(', ')})` : ''}`);
        }
      }
      return lines.length ? `${lines.length} open editor(s):\n${lines.join('\n')}` : 'No files are open in editors.';
    }
    case 'go_to_definition':
    case 'find_references': {
      const a = positionArgs(args);
      const uri = resolveUri(a.path);
      await vscode.workspace.openTextDocument(uri); // language services need the document loaded
      const pos = new vscode.Position(a.line - 1, a.column - 1);
      const command = tool.name === 'go_to_definition' ? 'vscode.executeDefinitionProvider' : 'vscode.executeReferenceProvider';
      const locs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(command, uri, pos);
      return formatLocations(await toPlain(locs), tool.name === 'go_to_definition' ? 'definition(s)' : 'reference(s)');
    }
    case 'workspace_symbols': {
      const query = stringArg(args, 'query', true);
      const symbols = (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
      if (symbols.length === 0) return `No symbols match "${query}".`;
      const lines = symbols
        .slice(0, 200)
        .map((s) => `${vscode.SymbolKind[s.kind]} ${s.name}${s.containerName ? ` (in ${s.containerName})` : ''}  ${display(s.location.uri)}:${s.location.range.start.line + 1}:${s.location.range.start.character + 1}`);
      return [`${symbols.length} symbol(s) match "${query}":`, ...lines].join('\n');
    }
    case 'file_language': {
      const p = stringArg(args, 'path', true);
      const doc = await vscode.workspace.openTextDocument(resolveUri(p));
      return `${p}: ${doc.languageId}`;
    }
    default:
      throw new ToolArgumentError(`editor tool "${name}" has no handler`);
  }
}

/** Answers one invocation: a result on success, the error text on failure; never leaves the runtime waiting. */
export async function answerInvocation(client: RuntimeClient, e: EventOf<'mcp_invocation'>, log: (line: string) => void): Promise<void> {
  let answer: { requestId: string; success: true; result: string } | { requestId: string; success: false; error: string };
  try {
    answer = { requestId: e.requestId, success: true, result: await runEditorTool(e.tool, e.args) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    answer = { requestId: e.requestId, success: false, error: `${e.tool}: ${message}` };
  }
  log(`editor tool ${e.tool} → ${answer.success ? 'ok' : `error: ${answer.error}`}`);
  try {
    await client.respondToMcpInvocation(answer);
  } catch (err) {
    log(`answering editor tool ${e.tool} (${e.requestId}) failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
