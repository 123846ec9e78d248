// The floor of loading rows into PostgreSQL: `COPY … FROM STDIN (FORMAT csv)` of the very file the
// pipelines read, into a table of the columns and key target-store makes of it. Nothing a pipeline
// does (processes, Singer messages, batches) can load the same rows faster on this server.
import fs from 'node:fs';
import pg from 'pg';

const CHUNK = 64 * 1024;

/**
 * Sends `file` as the data of one COPY FROM STDIN through node-postgres's "submittable" interface
 * (the one pg-copy-streams implements; server/stores/csvCopy.ts reads a COPY TO the same way).
 */
function copyFrom(client: pg.Client, text: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const submittable = {
      submit(connection: { query(text: string): void }) {
        connection.query(text);
      },
      handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }) {
        const data = fs.readFileSync(file);
        for (let at = 0; at < data.length; at += CHUNK) connection.sendCopyFromChunk(data.subarray(at, at + CHUNK));
        connection.endCopyFrom();
      },
      handleCommandComplete() {},
      handleReadyForQuery() {
        resolve();
      },
      // after an ErrorResponse node-postgres calls this and no longer hands the query ReadyForQuery
      handleError(error: unknown) {
        reject(error instanceof Error ? error : new Error('COPY failed'));
      },
    };
    client.query(submittable as unknown as pg.Submittable);
  });
}

/** Seconds one COPY of `file` (a header line, then `rows` rows) takes into a fresh table, checked by counting. */
export async function timeCopy(databaseUrl: string, file: string, rows: number, columns: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS bench_copy_floor');
    await client.query(`CREATE TABLE bench_copy_floor (${columns})`);
    const started = performance.now();
    await copyFrom(client, 'COPY bench_copy_floor FROM STDIN (FORMAT csv, HEADER true)', file);
    const seconds = (performance.now() - started) / 1000;
    const counted = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM bench_copy_floor')).rows[0]?.n;
    if (counted !== rows) throw new Error(`COPY loaded ${String(counted)} rows of ${rows}`);
    await client.query('DROP TABLE bench_copy_floor');
    return seconds;
  } finally {
    await client.end();
  }
}
