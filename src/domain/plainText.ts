/**
 * Markdown written by users, reduced to readable plain text for teasers and for places that do not
 * render markdown: emphasis, code, heading and quote markers go; link and image text stays.
 * Works on text only, so nothing user-written can become markup.
 */
export function plainTextFromMarkdown(markdown: string | null | undefined): string {
  if (typeof markdown !== 'string') return '';
  return markdown
    .replace(/\r\n?/g, '\n')
    .replace(/```[^\n]*\n?/g, '')
    .replace(/!\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+(?=\S))/gm, '')
    .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/(\*|_)(?=\S)([^\n*_]*?\S)\1/g, '$2')
    .replace(/`([^`\n]*)`/g, '$1')
    .replace(/~~(?=\S)([^\n]*?\S)~~/g, '$1')
    .trim();
}

/** String.prototype.toWellFormed (ES2024, outside our lib setting): lone surrogates become U+FFFD. */
export function wellFormed(text: string): string {
  return /[\uD800-\uDFFF]/.test(text) ? Array.from(text, (char) => (char.length === 1 && char >= '\uD800' && char <= '\uDFFF' ? '\uFFFD' : char)).join('') : text;
}
