/** Plain-words texts for permission and directory-access cards. Pure: no DOM. */

/** A piece of text; `code` pieces are shown in a monospace font. */
export interface Piece {
  text: string;
  code?: boolean;
}

/** The description only repeats the command (e.g. "Run: npm test" over `npm test`): not worth a line. */
export function descriptionRepeatsCommand(description: string, command: string | undefined): boolean {
  if (command === undefined) return false;
  const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
  const d = flat(description);
  const c = flat(command);
  return c !== '' && (d === c || d.endsWith(`: ${c}`) || d.endsWith(` ${c}`));
}

/** One suggested rule such as `Bash(echo:*)` in words: "any `echo …` command". */
export function describeRule(rule: string): Piece[] {
  const m = /^(\w+)\((.*)\)$/s.exec(rule.trim());
  if (m === null) return [{ text: 'the rule ' }, { text: rule, code: true }];
  const tool = m[1] ?? '';
  const spec = m[2] ?? '';
  const prefix = spec.endsWith(':*') ? spec.slice(0, -2) : spec.endsWith(' *') ? spec.slice(0, -2) : undefined;
  if (tool === 'Bash') {
    if (spec === '*' || spec === '') return [{ text: 'any command' }];
    return prefix !== undefined ? [{ text: 'any ' }, { text: `${prefix} …`, code: true }, { text: ' command' }] : [{ text: 'the command ' }, { text: spec, code: true }];
  }
  const verb = tool === 'Write' || tool === 'Edit' ? 'writing' : tool === 'Read' ? 'reading' : undefined;
  if (verb === undefined) return [{ text: 'the rule ' }, { text: rule, code: true }];
  if (spec === '' || spec === '*' || spec === '**') return [{ text: `${verb} any file` }];
  return [{ text: `${verb} ` }, { text: spec, code: true }];
}

/** "For this session / Always: allows any `echo …` command. Always also saves …": what the wider answers do. */
export function rulesExplanation(rules: readonly string[], offered: { session: boolean; always: boolean }): Piece[] {
  if (rules.length === 0 || (!offered.session && !offered.always)) return [];
  const which = offered.session && offered.always ? 'For this session / Always' : offered.session ? 'For this session' : 'Always';
  const pieces: Piece[] = [{ text: `${which}: allows ` }];
  rules.forEach((r, i) => {
    if (i > 0) pieces.push({ text: i === rules.length - 1 ? ' and ' : ', ' });
    pieces.push(...describeRule(r));
  });
  pieces.push({ text: offered.always ? ". Always also saves the rule to the project's .agentcli/config.json." : '.' });
  return pieces;
}

/** "Read /w/outside/secret-notes.txt needs read access outside the workspace" (the runtime's reason, tool-executor.ts). */
const RUNTIME_REASON = /^(.*) needs (read|write) access outside the workspace$/s;

/** The part of `text` after `folder/`; also found by the folder's last name (the runtime may show a symlinked path). */
function pathInside(text: string, folder: string): string | undefined {
  const last = folder.split('/').pop() ?? '';
  for (const prefix of [`${folder}/`, `/${last}/`]) {
    const at = prefix === '//' ? -1 : text.lastIndexOf(prefix);
    const rest = at < 0 ? '' : text.slice(at + prefix.length).trim();
    if (rest !== '') return rest;
  }
  return undefined;
}

/**
 * What a directory-access card says: "The agent wants to read secret-notes.txt in:" over the folder, and the reason
 * when it says more than the runtime's standard sentence.
 */
export function directoryRequestText(folder: string, reason: string): { lead: string; reason: string | undefined } {
  const m = RUNTIME_REASON.exec(reason.trim());
  if (m === null) return { lead: 'The agent wants access outside the workspace, to:', reason: reason.trim() === '' ? undefined : reason.trim() };
  const access = m[2] === 'write' ? 'write' : 'read';
  const what = m[1] ?? '';
  const inside = pathInside(what.replace(/\\/g, '/'), folder.replace(/\\/g, '/').replace(/\/+$/, ''));
  if (inside !== undefined) return { lead: `The agent wants to ${access} ${inside} in:`, reason: undefined };
  return { lead: `The agent wants ${access} access to:`, reason: undefined };
}
