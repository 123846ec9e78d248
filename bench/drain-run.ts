// `npm run bench:drain`: the queue drain alone, by 1, 2 and 4 workers on a scratch database of
// BENCH_DATABASE_URL (the same figures `npm run bench` prints in its Lab section).
import { benchDrain } from './lab';
import { createScratchDatabase } from './scratch-postgres';

const adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) {
  console.error('set BENCH_DATABASE_URL (a PostgreSQL the bench may create and drop databases on)');
  process.exit(2);
}
console.log(`The queue drain: trivial jobs${process.env.BENCH_DRAIN_SANDBOX === 'off' ? '' : ', each in its sandbox,'} by server processes sharing one PostgreSQL, a data directory each:`);
for (const workers of (process.env.BENCH_DRAIN_WORKERS ?? "1,2,4").split(",").map(Number)) {
  const scratch = await createScratchDatabase(adminUrl);
  try {
    console.log(await benchDrain(scratch.url, workers));
  } finally {
    await scratch.drop();
  }
}
