import { SEARCH_FUZZINESS, stripQuotes } from '../../src/domain/searchQuery';

/** A search box's text, read: free-text terms plus `tag:` and `in:` (channel) filters. */
export interface SearchText {
  /** lowercased words, letters and digits only, without duplicates */
  terms: string[];
  /** tag names as typed, lowercased (spaces written as hyphens) */
  tags: string[];
  /** channel names as typed, lowercased (spaces written as hyphens) */
  channels: string[];
}

// Bounds keep one request's SQL small whatever is typed.
export const MAX_TERMS = 8;
export const MAX_FILTERS = 5;
export const MAX_TERM_LENGTH = 64;
const MAX_TEXT = 1_000;

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

export function readSearchText(raw: string | null | undefined): SearchText {
  // Plus signs are spaces (spec 000 §5), as in a query string.
  const text = stripQuotes(typeof raw === 'string' ? raw.slice(0, MAX_TEXT).replace(/\+/g, ' ') : '').toLowerCase();
  const terms: string[] = [];
  const tags: string[] = [];
  const channels: string[] = [];
  const add = (list: string[], value: string, max: number) => {
    if (value !== '' && !list.includes(value) && list.length < max) list.push(value);
  };
  for (const token of text.split(/\s+/)) {
    if (token.startsWith('tag:')) add(tags, token.slice(4).slice(0, MAX_TERM_LENGTH), MAX_FILTERS);
    else if (token.startsWith('in:')) add(channels, token.slice(3).slice(0, MAX_TERM_LENGTH), MAX_FILTERS);
    else for (const word of token.split(WORD_SPLIT)) add(terms, word.slice(0, MAX_TERM_LENGTH), MAX_TERMS);
  }
  return { terms, tags, channels };
}

/**
 * Edits allowed per term: the spec's fuzziness 2, scaled down for short words the way search
 * engines' AUTO fuzziness does, since two edits turn any three-letter word into most others.
 */
export function maxEdits(term: string): number {
  const length = [...term].length;
  if (length <= 2) return 0;
  if (length <= 5) return Math.min(1, SEARCH_FUZZINESS);
  return SEARCH_FUZZINESS;
}
