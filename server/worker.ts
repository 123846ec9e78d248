import { pino } from 'pino';
import { backgroundWork, stopOnSignals } from './background';
import { loadConfig } from './config';
import { openDatabase } from './db/database';

/**
 * `npm run worker`: a job worker with no HTTP — the runner, the scheduler and the digests on a
 * shared PostgreSQL, so API processes and workers can run on separate machines (README "Scale
 * out"). The embedded database belongs to one process, so a worker needs DATABASE_URL.
 */
async function main() {
  const config = loadConfig();
  const log = pino({ level: config.env.LOG_LEVEL });
  if (!config.databaseUrl) {
    log.fatal('a worker needs DATABASE_URL: the embedded database can be opened by one process only, so run `npm start` alone instead');
    process.exit(2);
  }
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) => log.error({ err: error }, 'database connection lost'),
  });
  const work = backgroundWork({ config, db: database.db, exclusiveDatabase: false, log });

  stopOnSignals(log, 'worker: ', work.stopBudgetMs, [() => work.stop(), () => database.close()]);

  await work.start();
  log.info({ database: database.kind }, 'worker: ready');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
