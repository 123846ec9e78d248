// The loading figures of `npm run bench` alone: `BENCH_DATABASE_URL=postgres://… node --import tsx bench/pipelines-run.ts`.
import { benchPipelines, PIPELINES_HEADING } from './pipelines';
import { createScratchDatabase } from './scratch-postgres';

const adminUrl = process.env.BENCH_DATABASE_URL;
console.log(`\n${PIPELINES_HEADING}${adminUrl ? '' : "; set BENCH_DATABASE_URL for PostgreSQL, which Meltano's target-postgres needs"}:`);
if (adminUrl) {
  const scratch = await createScratchDatabase(adminUrl);
  try {
    console.log((await benchPipelines(scratch.url)).join('\n'));
  } finally {
    await scratch.drop();
  }
}
