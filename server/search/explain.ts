import { rangesOf, wordsOf, type MatchKind } from '../../src/domain/searchMatch';
import type { SearchMatch } from '../../src/domain/resources';
import { FIELDS, type Field } from './fields';

/** The dataset words a searched term reached, and how. */
export type Expansion = ReadonlyMap<string, { kind: MatchKind; edits: number }>;

export interface DatasetText {
  readonly title: string;
  readonly alias: string | null;
  readonly tags: readonly string[];
  readonly questions: string | null;
  readonly description: string | null;
}

const SNIPPET = 160;
const KIND_ORDER: Record<MatchKind, number> = { exact: 0, prefix: 1, fuzzy: 2 };

/** A short window of a long text around [start, end), on word boundaries where it can be. */
function snippetAround(text: string, start: number, end: number): { snippet: string; offset: number } {
  if (text.length <= SNIPPET) return { snippet: text, offset: 0 };
  let from = Math.max(0, Math.min(start - 40, text.length - SNIPPET));
  const space = text.lastIndexOf(' ', from);
  if (space >= 0 && from - space < 20) from = space + 1;
  let to = Math.max(end, Math.min(text.length, from + SNIPPET));
  // never cut a surrogate pair in two
  if (from > 0 && /[\uDC00-\uDFFF]/.test(text.charAt(from))) from -= 1;
  if (to < text.length && /[\uD800-\uDBFF]/.test(text.charAt(to - 1))) to += 1;
  return { snippet: text.slice(from, to), offset: from };
}

function fieldTexts(dataset: DatasetText): { field: Field; text: string }[] {
  const texts: { field: Field; text: string }[] = [];
  for (const field of FIELDS) {
    if (field === 'tags') for (const tag of dataset.tags) texts.push({ field, text: tag });
    else {
      const value = dataset[field];
      if (value) texts.push({ field, text: value });
    }
  }
  return texts;
}

/**
 * Why a dataset matched: for each searched term, its best match (how it matched, then the
 * field in rank order) with the field's snippet and where the term's words sit in it.
 */
export function explain(dataset: DatasetText, terms: readonly string[], expansions: readonly Expansion[]): SearchMatch[] {
  const matches: SearchMatch[] = [];
  const texts = fieldTexts(dataset);
  terms.forEach((term, index) => {
    const expansion = expansions[index];
    if (!expansion) return;
    let best: { match: SearchMatch; rank: number } | undefined;
    texts.forEach(({ field, text }, order) => {
      for (const at of wordsOf(text)) {
        const how = expansion.get(at.word);
        if (!how) continue;
        const rank = KIND_ORDER[how.kind] * 1_000_000 + how.edits * 10_000 + order;
        if (best && best.rank <= rank) continue;
        const words = new Set([at.word]);
        const { snippet, offset } = snippetAround(text, at.start, at.end);
        const ranges = rangesOf(snippet, words).filter((r) => r.start + offset >= 0);
        best = { rank, match: { field, term, word: at.word, kind: how.kind, edits: how.edits, snippet, ranges } };
      }
    });
    if (best) matches.push(best.match);
  });
  return matches.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || FIELDS.indexOf(a.field) - FIELDS.indexOf(b.field));
}
