// The floor of any design with a database round trip per request: a Fastify route that runs one
// trivial parameterised statement through our data layer (Kysely, the same pools and prepared
// statements as the server) and answers a few bytes. Our reads cannot beat it; how far they stay
// below it is what our own code costs. Run by bench/run.ts in its own process, like the others.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/database';

const port = Number(process.env.PORT);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-floor-'));
const database = await openDatabase({ url: process.env.DATABASE_URL, dataDir });
const app = Fastify({ logger: false });
app.get('/', async () => {
  const { rows } = await sql<{ n: number }>`SELECT ${1}::int AS n`.execute(database.db);
  return { n: rows[0]?.n };
});
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .finally(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
});
