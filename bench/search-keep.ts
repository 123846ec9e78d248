// Fills (once) or re-measures a kept database for search tuning:
// `node --import tsx bench/search-keep.ts postgres://…/db [fill]`, or `pglite:/some/dir [fill]`.
import { pino } from 'pino';
import { openDatabase } from '../server/db/database';
import { DEMO, seedDemo } from '../server/seed';
import { catalogueOf, fill, measureQueries } from './search';

const target = process.argv[2] ?? '';
const pglite = target.startsWith('pglite:');
const handle = await openDatabase(pglite ? { url: undefined, dataDir: target.slice('pglite:'.length) } : { url: target, dataDir: '/tmp/unused-search-keep' });
try {
  if (process.argv[3] === 'fill') {
    await seedDemo(handle.db, pino({ level: 'silent' }));
    await fill(handle.db, DEMO.workspaceId);
  }
  const catalogue = await catalogueOf(handle.db, DEMO.workspaceId);
  console.log((await measureQueries(handle.db, DEMO.workspaceId, catalogue, pglite ? 'pglite' : 'postgres')).join('\n'));
} finally {
  await handle.close();
}
