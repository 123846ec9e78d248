// Fills (once) or re-measures a kept PostgreSQL database for search tuning:
// `node --import tsx bench/search-keep.ts postgres://…/db [fill]`.
import { pino } from 'pino';
import { openDatabase } from '../server/db/database';
import { DEMO, seedDemo } from '../server/seed';
import { catalogueOf, fill, measureQueries } from './search';

const url = process.argv[2];
const handle = await openDatabase({ url, dataDir: '/tmp/unused-search-keep' });
try {
  if (process.argv[3] === 'fill') {
    await seedDemo(handle.db, pino({ level: 'silent' }));
    await fill(handle.db, DEMO.workspaceId);
  }
  const catalogue = await catalogueOf(handle.db, DEMO.workspaceId);
  console.log((await measureQueries(handle.db, DEMO.workspaceId, catalogue, 'postgres')).join('\n'));
} finally {
  await handle.close();
}
