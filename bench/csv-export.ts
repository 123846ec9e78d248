// Only the CSV export part of `npm run bench`, on PGlite and (with BENCH_DATABASE_URL) PostgreSQL:
// `node --import tsx bench/csv-export.ts`.
import { benchCsvExport } from './datasets';
import { createScratchDatabase } from './scratch-postgres';

const adminUrl = process.env.BENCH_DATABASE_URL;
const only = process.argv[2];
if (only !== 'postgres') console.log(await benchCsvExport('pglite', undefined));
if (adminUrl && only !== 'pglite') {
  const scratch = await createScratchDatabase(adminUrl);
  try {
    console.log(await benchCsvExport('postgres', scratch.url));
  } finally {
    await scratch.drop();
  }
}
