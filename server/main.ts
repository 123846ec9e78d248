import { buildServer } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { seedDemo } from './seed';

/** `npm start`: open (and migrate) the database, seed demo content once, serve until told to stop. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) => console.error(JSON.stringify({ level: 50, msg: 'database connection lost', err: error.message })),
  });
  const server = await buildServer({ config, db: database.db });
  const log = server.app.log;

  if (config.env.SEED_DEMO === 'true') {
    await seedDemo(database.db, log);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
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
  log.info({ url: config.publicUrl, database: database.kind, identity: config.auth.embedded ? 'embedded' : config.auth.domain }, 'ready');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
