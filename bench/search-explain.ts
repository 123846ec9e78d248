// EXPLAIN ANALYZE of every statement one search runs (search tuning):
// `node --import tsx bench/search-explain.ts postgres://…/db 'query text'`.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../server/db/schema';
import { readSearchText } from '../server/repositories/searchText';
import { postgresSearchEngine } from '../server/search/postgres';
import { DEMO } from '../server/seed';

const pool = new pg.Pool({ connectionString: process.argv[2], max: 2, options: '-c jit=off' });
const statements: { sql: string; parameters: readonly unknown[]; ms: number }[] = [];
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool }),
  log: (event) => {
    statements.push({ sql: event.query.sql, parameters: event.query.parameters, ms: event.queryDurationMillis });
  },
});
const engine = postgresSearchEngine(db);
const search = () => engine.search({ workspaceId: DEMO.workspaceId, viewerId: undefined, text: readSearchText(process.argv[3] ?? ''), paging: { page: 0, size: 10, sort: undefined } });
await search();
statements.length = 0;
const t0 = performance.now();
const result = await search();
console.log(`total ${result.total} in ${(performance.now() - t0).toFixed(1)} ms`);
for (const s of [...statements]) {
  console.log(`--- ${s.ms.toFixed(1)} ms`);
  if (process.argv[4] === 'sql') console.log(s.sql, JSON.stringify(s.parameters).slice(0, 500));
  const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.parameters as unknown[]);
  console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
}
await db.destroy();
