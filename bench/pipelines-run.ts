// The loading figures of `npm run bench` alone: `BENCH_DATABASE_URL=postgres://… node --import tsx bench/pipelines-run.ts`.
import { printPipelines } from './pipelines';

await printPipelines(process.env.BENCH_DATABASE_URL);
