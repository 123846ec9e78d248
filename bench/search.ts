// Search at scale for `npm run bench` (issue 11): 100,000 datasets in one workspace, searched
// through the search engine the API uses (server/search), in process: exact titles, prefixes,
// typos of two edits and tag filters, p50 and p95 per kind, on each database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { pino } from 'pino';
import { openDatabase, type Db } from '../server/db/database';
import { newId } from '../server/repositories/ids';
import { readSearchText } from '../server/repositories/searchText';
import { postgresSearchEngine } from '../server/search/postgres';
import { DEMO, seedDemo } from '../server/seed';

export const SEARCH_DATASETS = 100_000;
const RUNS = 200;
const WARM_UP = 20;
export const SEARCH_P95_TARGET_MS = 30;

/** A deterministic pseudo-random stream, so every run searches the same catalogue. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'tor', 'sal', 'ven', 'ri', 'dat', 'um', 'pex', 'qua', 'zen', 'bri', 'cor', 'fal', 'gu', 'hil', 'jor', 'wex'];

/** A vocabulary of made-up words of 2 to 4 syllables (about 4 to 12 letters). */
function vocabulary(next: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const count = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < count; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

interface Catalogue {
  titles: string[];
  words: string[];
  tags: string[];
}

export async function fill(db: Db, workspaceId: string): Promise<Catalogue> {
  const next = random(11);
  const words = vocabulary(next, 5_000);
  const tags = Array.from({ length: 300 }, (_, i) => `topic-${i}`);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const titles: string[] = [];
  const BATCH = 1_000;
  // Loaded in bulk: the row triggers off, then the workspace indexed in one statement (the
  // same words the triggers would write, much faster than 100,000 one by one).
  await sql`ALTER TABLE datasets DISABLE TRIGGER datasets_search_index`.execute(db);
  await sql`ALTER TABLE dataset_tags DISABLE TRIGGER dataset_tags_search_index`.execute(db);
  for (let start = 0; start < SEARCH_DATASETS; start += BATCH) {
    const rows = [];
    const tagRows = [];
    for (let i = start; i < Math.min(start + BATCH, SEARCH_DATASETS); i++) {
      const id = newId();
      // four words of 5,000: practically unique, without 100,000 number words no real vocabulary has
      const title = `${pick(words)} ${pick(words)} ${pick(words)} ${pick(words)}`;
      titles.push(title);
      const description = Array.from({ length: 25 }, () => pick(words)).join(' ');
      rows.push({ id, workspace_id: workspaceId, title, description, description_content_type: 'text/markdown', published: new Date(Date.now() - i * 60_000) });
      tagRows.push({ dataset_id: id, tag: pick(tags) }, { dataset_id: id, tag: `${pick(tags)}-x` });
    }
    await db.insertInto('datasets').values(rows).execute();
    await db.insertInto('dataset_tags').values(tagRows).onConflict((oc) => oc.doNothing()).execute();
  }
  await sql`ALTER TABLE datasets ENABLE TRIGGER datasets_search_index`.execute(db);
  await sql`ALTER TABLE dataset_tags ENABLE TRIGGER dataset_tags_search_index`.execute(db);
  await sql`SELECT search_reindex_workspace(${workspaceId})`.execute(db);
  // what autovacuum does soon after a bulk load: the visibility map lets index-only scans skip the heap
  await sql`VACUUM ANALYZE`.execute(db);
  return { titles, words, tags };
}

/** The catalogue of a filled database, read back (to measure again without loading again). */
export async function catalogueOf(db: Db, workspaceId: string): Promise<Catalogue> {
  const titles = await sql<{ title: string }>`SELECT title FROM datasets WHERE workspace_id = ${workspaceId} ORDER BY id LIMIT 5000`.execute(db);
  const words = await sql<{ word: string }>`SELECT word FROM search_vocabulary WHERE workspace_id = ${workspaceId} AND word ~ '^[a-z]+$' ORDER BY word LIMIT 20000`.execute(db);
  const tags = await sql<{ tag: string }>`SELECT DISTINCT t.tag FROM dataset_tags t JOIN datasets d ON d.id = t.dataset_id WHERE d.workspace_id = ${workspaceId} LIMIT 1000`.execute(db);
  return { titles: titles.rows.map((r) => r.title), words: words.rows.map((r) => r.word), tags: tags.rows.map((r) => r.tag) };
}

/** Two edits as Elasticsearch counts them: a swap of two adjacent letters and one substitution. */
function twoEdits(word: string, next: () => number): string {
  const letters = [...word];
  const i = 1 + Math.floor(next() * (letters.length - 3));
  [letters[i], letters[i + 1]] = [letters[i + 1] as string, letters[i] as string];
  const j = i + 2 < letters.length ? i + 2 : 0;
  letters[j] = letters[j] === 'x' ? 'y' : 'x';
  return letters.join('');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** Fills a fresh database of `kind` with the catalogue and times each kind of query. */
export async function benchSearch(kind: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
  const handle = await openDatabase({ url: databaseUrl, dataDir });
  try {
    await seedDemo(handle.db, pino({ level: 'silent' }));
    const workspaceId = DEMO.workspaceId;
    const started = performance.now();
    const catalogue = await fill(handle.db, workspaceId);
    const loadSeconds = (performance.now() - started) / 1000;
    return [`  ${kind}: ${SEARCH_DATASETS.toLocaleString('en')} datasets loaded and indexed in ${loadSeconds.toFixed(0)} s; ${RUNS} queries of each kind (page of 10)`, ...(await measureQueries(handle.db, workspaceId, catalogue, kind))];
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** p50 and p95 of each kind of query on a filled database. */
export async function measureQueries(db: Db, workspaceId: string, catalogue: Catalogue, kind: string): Promise<string[]> {
  {
    const engine = postgresSearchEngine(db);
    const next = random(7);
    const long = catalogue.words.filter((w) => w.length >= 7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
    const kinds: Record<string, () => string> = {
      exact: () => pick(catalogue.titles),
      prefix: () => pick(long).slice(0, 5),
      'fuzzy (2 edits)': () => twoEdits(pick(long), next),
      tag: () => `tag:${pick(catalogue.tags)}`,
    };
    const lines: string[] = [];
    for (const [name, query] of Object.entries(kinds)) {
      const times: number[] = [];
      let found = 0;
      for (let run = 0; run < WARM_UP + RUNS; run++) {
        const text = readSearchText(query());
        const t0 = performance.now();
        const result = await engine.search({ workspaceId, viewerId: undefined, text, paging: { page: 0, size: 10, sort: undefined } });
        const ms = performance.now() - t0;
        if (run >= WARM_UP) {
          times.push(ms);
          if (result.total > 0) found += 1;
        }
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      const verdict = kind === 'postgres' ? (p95 <= SEARCH_P95_TARGET_MS ? `met (p95 ≤ ${SEARCH_P95_TARGET_MS} ms)` : `NOT met (p95 ≤ ${SEARCH_P95_TARGET_MS} ms)`) : '';
      lines.push(`    ${name.padEnd(16)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  found ${found}/${RUNS}  ${verdict}`);
    }
    return lines;
  }
}
