// `npm run bench:search`: the search figures of `npm run bench` alone (BENCH_DATABASE_URL adds PostgreSQL).
import { benchSearch } from './search';
import { createScratchDatabase } from './scratch-postgres';

const adminUrl = process.env.BENCH_DATABASE_URL;
const only = process.argv[2];
console.log(`\nSearch: ${adminUrl ? '' : 'set BENCH_DATABASE_URL for PostgreSQL'}`);
if (only !== 'postgres') console.log((await benchSearch('pglite', undefined)).join('\n'));
if (adminUrl && only !== 'pglite') {
  const scratch = await createScratchDatabase(adminUrl);
  try {
    console.log((await benchSearch('postgres', scratch.url)).join('\n'));
  } finally {
    await scratch.drop();
  }
}
