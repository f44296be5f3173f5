/**
 * A file path the way VS Code lists files in a narrow view: the file name first, never cut (it wraps if it must), then
 * its folder dimmed and cut from the left when there is no room ("…/releases"), the full path in the tooltip.
 */
import { h } from './dom';

/** `docs/releases/CHANGELOG.md` → name `CHANGELOG.md`, folder `docs/releases` (empty for a top-level file). */
export function splitPath(path: string): { name: string; folder: string } {
  const clean = path.replace(/\\/g, '/').replace(/\/+$/, '');
  const at = clean.lastIndexOf('/');
  return at < 0 ? { name: clean, folder: '' } : { name: clean.slice(at + 1), folder: clean.slice(0, at) };
}

/** The name and folder spans (add them to an element styled as a flex row; `.path-label` does that). */
export function pathParts(path: string): HTMLElement[] {
  const { name, folder } = splitPath(path);
  const parts = [h('span', { class: 'path-name', text: name })];
  // Left-to-right marks keep a leading "." or "/" in place inside the right-to-left box that puts the ellipsis on the left.
  if (folder !== '') parts.push(h('span', { class: 'path-folder', text: `\u200E${folder}\u200E` }));
  return parts;
}

/** A whole path label: name, dimmed folder, the full path as tooltip. */
export function pathLabel(path: string, extraClass = ''): HTMLElement {
  return h('span', { class: `path-label ${extraClass}`.trim(), title: path }, ...pathParts(path));
}
