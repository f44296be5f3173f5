/**
 * Counts the words in a text.
 * @param {string} text
 * @returns {number}
 */
export function wordCount(text) {
  return text.split(' ').length;
}
