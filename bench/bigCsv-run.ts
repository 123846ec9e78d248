// The big-CSV figure of `npm run bench` alone: `BENCH_DATABASE_URL=postgres://… [BENCH_BIGCSV_MB=200] npm run bench:bigcsv`.
import { printBigCsv } from './bigCsv';

await printBigCsv(process.env.BENCH_DATABASE_URL);
