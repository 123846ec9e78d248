// The parts of search that are pure: how text is cut into words, how far apart two words are
// (edits as Elasticsearch counts them), and where a result's matched words sit in its text.
// The server's index (server/search) cuts text the same way in SQL: runs of anything but
// letters and digits separate words, and words are lowercased.

const WORD = /[\p{L}\p{N}]+/gu;

export type MatchKind = 'exact' | 'prefix' | 'fuzzy';

/** A word of some text with its place: [start, end) in UTF-16 units of the original text. */
interface WordAt {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

/** The words of a text, lowercased, with where each one is. */
export function wordsOf(text: string): WordAt[] {
  const words: WordAt[] = [];
  for (const match of text.matchAll(WORD)) {
    words.push({ word: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length });
  }
  return words;
}

/**
 * Optimal string alignment distance (Damerau–Levenshtein without re-editing a transposed pair):
 * insertions, deletions, substitutions and swaps of two adjacent letters each count one edit,
 * which is how Elasticsearch's fuzziness counts. Gives up (returns max + 1) once the distance
 * must exceed `max`; a long word costs O(length × max).
 */
export function editDistance(a: string, b: string, max: number): number {
  const x = [...a];
  const y = [...b];
  const over = max + 1;
  if (Math.abs(x.length - y.length) > max) return over;
  if (x.length === 0 || y.length === 0) return Math.max(x.length, y.length) <= max ? Math.max(x.length, y.length) : over;
  // Only cells within `max` of the diagonal can hold a distance of at most `max`, so each row
  // computes that band alone and marks the cell on either side of it as `over` for the next rows
  // to read. Three rows are reused: rows i-2, i-1 and i.
  let before = new Int32Array(y.length + 1).fill(over);
  let previous = Int32Array.from({ length: y.length + 1 }, (_, j) => Math.min(j, over));
  let current = new Int32Array(y.length + 1).fill(over);
  for (let i = 1; i <= x.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(y.length, i + max);
    current[0] = Math.min(i, over);
    if (from > 1) current[from - 1] = over;
    let rowMin = from === 1 ? current[0] : over;
    for (let j = from; j <= to; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = Math.min(value, over);
      rowMin = Math.min(rowMin, current[j]!);
    }
    if (to < y.length) current[to + 1] = over;
    if (rowMin > max) return over;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[y.length]!, over);
}

/** How a searched term reaches a word of a dataset, if it does within `maxEdits`. */
export function classify(term: string, word: string, maxEdits: number, minPrefix: number): { kind: MatchKind; edits: number } | undefined {
  if (word === term) return { kind: 'exact', edits: 0 };
  if ([...term].length >= minPrefix && word.startsWith(term)) return { kind: 'prefix', edits: 0 };
  if (maxEdits === 0) return undefined;
  const edits = editDistance(term, word, maxEdits);
  return edits <= maxEdits ? { kind: 'fuzzy', edits } : undefined;
}

/** Where the given words occur in a text, at most `limit` ranges, in order. */
export function rangesOf(text: string, words: ReadonlySet<string>, limit = 5): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (const at of wordsOf(text)) {
    if (ranges.length >= limit) break;
    if (words.has(at.word)) ranges.push({ start: at.start, end: at.end });
  }
  return ranges;
}

/** A text cut into plain and highlighted parts by non-overlapping, ordered ranges (for the UI). */
export function highlightParts(text: string, ranges: readonly { start: number; end: number }[]): { text: string; hit: boolean }[] {
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  const sorted = [...ranges].filter((r) => Number.isInteger(r.start) && Number.isInteger(r.end) && r.start < r.end).sort((p, q) => p.start - q.start);
  for (const range of sorted) {
    const start = Math.max(range.start, at);
    const end = Math.min(range.end, text.length);
    if (start >= end) continue;
    if (start > at) parts.push({ text: text.slice(at, start), hit: false });
    parts.push({ text: text.slice(start, end), hit: true });
    at = end;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at), hit: false });
  return parts;
}

// Words that say nothing about a dataset: they neither filter nor rank unless the query is
// nothing but them (then they are searched like any word).
const STOP_WORDS = new Set(
  'a an and are as at be by for from how in is it of on or our the to was were what when where which who why with'.split(' '),
);

export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}
