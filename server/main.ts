import { buildServer } from './app';
import { sweepStaleUploads, uploadSpoolDir } from './http/uploadSpool';
import { backgroundWork, stopOnSignals } from './background';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { collectWhenQuiet } from './quietCollection';
import { seedDemo } from './seed';

/** `npm start`: open (and migrate) the database, seed demo content once, run jobs and serve until told to stop. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) => console.error(JSON.stringify({ level: 50, msg: 'database connection lost', err: error.message })),
  });
  const server = await buildServer({ config, db: database.db });
  const log = server.app.log;
  const swept = sweepStaleUploads(uploadSpoolDir(config.dataDir));
  if (swept > 0) log.warn({ files: swept }, 'removed uploads a stopped process left half-spooled');

  if (config.env.SEED_DEMO === 'true') {
    await seedDemo(database.db, log, { pipelines: true });
  }

  // Every server process is also a worker on the shared queue (RUNNER_ENABLED=false and
  // SCHEDULER_ENABLED=false make it an API process only; `npm run worker` is the other half).
  const work = backgroundWork({ config, db: database.db, exclusiveDatabase: database.kind === 'pglite', log });

  stopOnSignals(log, '', work.stopBudgetMs, [() => work.stop(), () => server.close(), () => database.close()]);

  await server.app.listen({ port: config.port, host: config.host });
  await work.start();
  // --expose-gc (npm start) makes the global gc: a full, synchronous collection
  const { gc } = globalThis;
  collectWhenQuiet(gc ? () => void gc() : undefined);
  log.info({ url: config.publicUrl, database: database.kind, identity: config.auth.embedded ? 'embedded' : config.auth.domain }, 'ready');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
