import { buildServer } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { DIGEST_CHECK_MS, startDigests } from './notifications/digest';
import { Runner, loadRunnerSettings } from './runner';
import { Scheduler, loadSchedulerSettings } from './scheduler';
import { seedDemo } from './seed';

/** `npm start`: open (and migrate) the database, seed demo content once, run jobs and serve until told to stop. */
async function main() {
  const config = loadConfig();
  const runnerSettings = loadRunnerSettings();
  const schedulerSettings = loadSchedulerSettings();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) => console.error(JSON.stringify({ level: 50, msg: 'database connection lost', err: error.message })),
  });
  const server = await buildServer({ config, db: database.db });
  const log = server.app.log;

  if (config.env.SEED_DEMO === 'true') {
    await seedDemo(database.db, log, { pipelines: true });
  }

  // Every server process is also a worker on the shared queue (RUNNER_ENABLED=false opts out).
  const runner = runnerSettings.enabled
    ? new Runner({ ...runnerSettings, db: database.db, exclusiveDatabase: database.kind === 'pglite', dataDir: config.dataDir, log })
    : undefined;
  // Every process also checks the schedules; a slot still gets one job (server/scheduler/slots.ts).
  const scheduler = schedulerSettings.enabled ? new Scheduler({ intervalMs: schedulerSettings.intervalMs, db: database.db, log }) : undefined;

  // Every process also checks for due daily digests; the claim sends each once (notifications/digest.ts).
  let stopDigests: (() => Promise<void>) | undefined;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), runnerSettings.shutdownGraceMs + runnerSettings.killGraceMs + 10_000);
    force.unref();
    try {
      // No new slots first, then stop claiming; running jobs get the grace period, then end with a log line saying why.
      await scheduler?.stop();
      await stopDigests?.();
      await runner?.stop();
      await server.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await server.app.listen({ port: config.port, host: config.host });
  await runner?.start();
  scheduler?.start();
  if (schedulerSettings.enabled) stopDigests = startDigests({ db: database.db, config, log }, DIGEST_CHECK_MS);
  log.info({ url: config.publicUrl, database: database.kind, identity: config.auth.embedded ? 'embedded' : config.auth.domain }, 'ready');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
