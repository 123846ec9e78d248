import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/database';
import { newId } from '../../server/repositories/ids';
import { readSearchText } from '../../server/repositories/searchText';
import type { SearchEngine } from '../../server/search/engine';
import { postgresSearchEngine } from '../../server/search/postgres';
import { DEMO, seedDemo } from '../../server/seed';
import { createTestDatabase, type TestDatabase } from '../support/server';

// The search engine's shortcuts must never change an answer (server/search/postgres.ts):
//  - a page is ranked among the datasets up to the page's last class and those whose title
//    begins with the query, so every page must be the same slice of the whole ranking;
//  - several terms are first narrowed by the GIN index of search_documents, so narrowing or not
//    must rank the same datasets the same way.
// A catalogue of made-up words that share beginnings and lie within edits of each other, so
// every kind of match and many ties occur.

const WORDS = ['kalo', 'kalomi', 'kalomine', 'kaloven', 'lomi', 'lomine', 'ventor', 'ventro', 'vantor', 'salmi', 'salmine', 'dat', 'data', 'datum', 'qua', 'quaze', 'brico', 'brica', 'zenfal', 'zenfel'];
const WORKSPACE = DEMO.sandboxWorkspaceId;

let database: TestDatabase;
let handle: DatabaseHandle;
let narrowing: SearchEngine;
let plain: SearchEngine;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
  await seedDemo(handle.db, pino({ level: 'silent' }));
  const next = random(5);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)] as string;
  const rows = Array.from({ length: 90 }, (_, i) => ({
    id: newId(),
    workspace_id: WORKSPACE,
    title: Array.from({ length: 1 + Math.floor(next() * 3) }, pick).join(' '),
    alias: i % 9 === 0 ? `${pick()}/${pick()}/${String(i)}` : null,
    description: Array.from({ length: 6 }, pick).join(' '),
    description_content_type: 'text/markdown',
    // a few days, so the day ties and popularity and recency break them
    published: new Date(Date.UTC(2026, 0, 1 + (i % 4), i % 24)),
    view_count: i % 3,
  }));
  await handle.db.insertInto('datasets').values(rows).execute();
  await handle.db
    .insertInto('dataset_tags')
    .values(rows.map((row) => ({ dataset_id: row.id, tag: pick() })))
    .execute();
  narrowing = postgresSearchEngine(handle.db);
  plain = postgresSearchEngine(handle.db, { maxNarrowed: 0 });
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await database?.dispose();
});

const ask = (engine: SearchEngine, q: string, page: number, size: number) =>
  engine.search({ workspaceId: WORKSPACE, viewerId: undefined, text: readSearchText(q), paging: { page, size, sort: undefined } });

/** A query term: a catalogue word as it is, cut short, or with a letter changed or dropped. */
const term = fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom('whole', 'prefix', 'typo', 'dropped'), fc.nat()).map(([word, how, at]) => {
  const i = at % word.length;
  if (how === 'prefix') return word.slice(0, Math.max(3, word.length - 2));
  if (how === 'typo') return `${word.slice(0, i)}x${word.slice(i + 1)}`;
  if (how === 'dropped') return word.slice(0, i) + word.slice(i + 1);
  return word;
});
const query = fc.array(term, { minLength: 1, maxLength: 3 }).map((terms) => terms.join(' '));

describe('the search engine ranks the same with and without its shortcuts', () => {
  it('every page is the same slice of the whole ranking, and the total is the same on each', async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.integer({ min: 1, max: 7 }), async (q, size) => {
        // 500 is more than the catalogue: this page is every match, ranked without a shortcut
        const whole = await ask(narrowing, q, 0, 500);
        expect(whole.hits).toHaveLength(whole.total);
        const pages: string[] = [];
        for (let page = 0; page * size < whole.total; page++) {
          const answer = await ask(narrowing, q, page, size);
          expect(answer.total).toBe(whole.total);
          pages.push(...answer.hits.map((hit) => hit.id));
        }
        expect(pages).toEqual(whole.hits.map((hit) => hit.id));
        // a page past the end has no datasets and still counts them all
        const past = await ask(narrowing, q, Math.ceil(whole.total / size) + 1, size);
        expect(past).toEqual({ hits: [], total: whole.total });
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('narrowing several terms by the GIN index ranks exactly as reading their postings whole', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const [narrowed, read] = await Promise.all([ask(narrowing, q, 0, 500), ask(plain, q, 0, 500)]);
        expect(narrowed).toEqual(read);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('finds something for most generated queries (the properties above are not vacuous)', async () => {
    const samples = fc.sample(query, { numRuns: 30, seed: 42 });
    const found = await Promise.all(samples.map(async (q) => (await ask(narrowing, q, 0, 10)).total));
    expect(found.filter((total) => total > 0).length).toBeGreaterThan(15);
    expect(found.some((total) => total > 10)).toBe(true);
  });
});
