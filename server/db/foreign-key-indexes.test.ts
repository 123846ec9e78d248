import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../../tests/support/memoryDatabase';

const handle = useMemoryDatabase();

describe('foreign keys', () => {
  it('each have an index leading with their columns, so deleting the row they point at never scans the table (migration 024)', async () => {
    const { rows } = await sql<{ constraint: string }>`
      SELECT c.conrelid::regclass || '.' || c.conname AS constraint
      FROM pg_constraint c
      WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
        AND NOT EXISTS (
          SELECT 1 FROM pg_index i
          WHERE i.indrelid = c.conrelid AND i.indpred IS NULL
            AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] = c.conkey)
      ORDER BY 1`.execute(handle.db);
    expect(rows.map((row) => row.constraint)).toEqual([]);
    // the rule has something to hold: the schema has foreign keys in the tables it checks
    const { rows: keys } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`.execute(handle.db);
    expect(keys[0]!.n).toBeGreaterThan(40);
  });

  it('the feed counts a dataset’s comments through an index, not a scan of every comment', async () => {
    await sql`SET enable_seqscan = off`.execute(handle.db);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT count(*) FROM comments cm WHERE cm.dataset_id = ${'00000000-0000-4000-8000-000000000000'} AND cm.message IS NOT NULL`.execute(handle.db);
    await sql`RESET enable_seqscan`.execute(handle.db);
    expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index.*comments_dataset_id_fk_idx/);
  });
});
