/**
 * Path keys: a path's UTF-8 bytes as latin1 text, one character per byte. Plain string comparison of keys is byte
 * order, which for UTF-8 is code point order: comparePaths' order, without its per-character loop. An ASCII path is its
 * own key, so most paths need no copy either way.
 */

/** The key of a path given as text. */
export function latin1Bytes(text: string): string {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return Buffer.from(text, 'utf8').toString('latin1');
  return text;
}

/** The text of a key. */
export function textOfKey(key: string): string {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0x7f) return Buffer.from(key, 'latin1').toString('utf8');
  return key;
}
