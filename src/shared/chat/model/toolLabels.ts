/** Human labels for tool cards ("Ran command", "Wrote notes.txt"); the raw tool name stays in the tooltip. Pure: no DOM. */
import type { ItemOf } from '../transcriptItems';

type ToolItem = ItemOf<'tool'>;
/** Running, done (succeeded or failed), and never ran (denied or stopped before it started). */
type Phases = readonly [running: string, done: string, notRun: string];

const LABELS: Record<string, Phases> = {
  run_command: ['Running command', 'Ran command', 'Command not run'],
  read_file: ['Reading file', 'Read file', 'File not read'],
  grep: ['Searching', 'Searched', 'Search not run'],
  list_files: ['Listing files', 'Listed files', 'Files not listed'],
};
/** File tools: the verb goes with the file name. */
const FILE_VERBS: Record<string, Phases> = {
  write_file: ['Writing', 'Wrote', 'Not written:'],
  edit_file: ['Editing', 'Edited', 'Not edited:'],
  delete_file: ['Deleting', 'Deleted', 'Not deleted:'],
};
/** In batch mode, per the batch decision. */
const CHANGE_VERB: Record<NonNullable<ToolItem['change']>, Record<string, string>> = {
  proposed: { write_file: 'Proposed', edit_file: 'Proposed edit:', delete_file: 'Proposed deleting' },
  applied: { write_file: 'Wrote', edit_file: 'Edited', delete_file: 'Deleted' },
  rejected: { write_file: 'Rejected', edit_file: 'Rejected edit:', delete_file: 'Rejected deleting' },
  stale: { write_file: 'Not written:', edit_file: 'Not edited:', delete_file: 'Not deleted:' },
  failed: { write_file: 'Not written:', edit_file: 'Not edited:', delete_file: 'Not deleted:' },
};

export function fileName(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/').filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

function sentence(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words === '' ? name : words.charAt(0).toUpperCase() + words.slice(1);
}

/** Denied, or stopped while its permission was asked: the tool never started. */
function neverRan(item: ToolItem): boolean {
  return (item.decisions ?? []).some((d) => d.outcome !== 'allowed');
}

/**
 * The card's label in parts: the words, and for a file tool the file it works on (the card shows its name, never cut,
 * then its folder dimmed). E.g. { text: "Proposed", path: "docs/CHANGELOG.md" }, { text: "Ran command" }.
 */
export function toolLabelParts(item: ToolItem): { text: string; path?: string } {
  // A call stopped while it ran keeps its "-ing" form: it did not finish.
  const phase = neverRan(item) ? 2 : item.status === 'running' || item.status === 'cancelled' ? 0 : 1;
  const verbs = FILE_VERBS[item.toolName];
  if (verbs !== undefined) {
    const verb = item.change !== undefined && item.status !== 'running' ? CHANGE_VERB[item.change][item.toolName] ?? verbs[1] : verbs[phase];
    return item.path !== undefined ? { text: verb, path: item.path } : { text: `${verb} file` };
  }
  const fixed = LABELS[item.toolName];
  if (fixed !== undefined) return { text: fixed[phase] };
  if (item.toolName.startsWith('editor_')) return { text: `Editor ${item.toolName.slice('editor_'.length).replace(/_/g, ' ')}` };
  return { text: sentence(item.toolName) };
}

/** The card's label as one line, e.g. "Ran command", "Wrote notes.txt", "Proposed notes.txt", "Editor diagnostics". */
export function toolLabel(item: ToolItem): string {
  const parts = toolLabelParts(item);
  return parts.path !== undefined ? `${parts.text} ${fileName(parts.path)}` : parts.text;
}
