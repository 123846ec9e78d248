import pg from 'pg';
import { JOB_ALLOWED_HOSTS_ENV, decideHost, parseAllowList, refusalMessage } from '../../security/netPolicy';
import { MessageWriter, isSelected, log, parseArguments, runPlugin, text } from '../singer';

// tap-postgres: the tables of one schema as streams (`{schema}-{table}`), keyed by their primary
// key, read incrementally by a replication key column where one is configured, else in full.
// A table of any size is read through a server-side cursor, a batch at a time, each batch written
// out (with the reader's backpressure) before the next is fetched: the tap holds one batch.

const NAME = 'tap-postgres';

/**
 * Rows per FETCH follow the rows' size, so a batch holds about BATCH_BYTES whatever the table:
 * a fixed 1,000 rows of 100 KB documents would be 100 MB in the tap at once (issue 39: the same
 * constant memory as tap-files). The first batch is small; each next is sized from the last.
 */
const BATCH_BYTES = 4 * 1024 * 1024;
const FIRST_BATCH = 100;
const MAX_BATCH = 10_000;

/** About how many bytes a row takes as JSON, from up to 16 rows spread over the batch. */
function bytesPerRow(records: readonly Record<string, unknown>[]): number {
  const step = Math.max(1, Math.floor(records.length / 16));
  let bytes = 0;
  let sampled = 0;
  for (let i = 0; i < records.length; i += step) {
    bytes += JSON.stringify(records[i]).length;
    sampled++;
  }
  return sampled === 0 ? 1 : Math.max(1, bytes / sampled);
}

/** The rows of the next FETCH, given the size of the last batch's rows. */
function nextBatch(rowBytes: number): number {
  return Math.min(MAX_BATCH, Math.max(1, Math.floor(BATCH_BYTES / rowBytes)));
}

const JSON_TYPES: Record<string, Record<string, unknown>> = {
  smallint: { type: ['integer', 'null'] },
  integer: { type: ['integer', 'null'] },
  bigint: { type: ['integer', 'null'] },
  numeric: { type: ['number', 'null'] },
  real: { type: ['number', 'null'] },
  'double precision': { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] },
  date: { type: ['string', 'null'], format: 'date' },
  'timestamp without time zone': { type: ['string', 'null'], format: 'date-time' },
  'timestamp with time zone': { type: ['string', 'null'], format: 'date-time' },
  json: { type: ['object', 'array', 'null'] },
  jsonb: { type: ['object', 'array', 'null'] },
};

runPlugin(NAME, async () => {
  const args = parseArguments(process.argv.slice(2));
  const c = args.config;
  if (!c.user || !c.database) throw new Error('user and database are required');
  const schema = typeof c.schema === 'string' && c.schema ? c.schema : 'public';
  const only = Array.isArray(c.tables) ? c.tables.map(String) : undefined;
  const replicationKeys = (c.replication_keys ?? {}) as Record<string, string>;
  // The same network policy as the server's own connections: a private host only when the job's
  // allow list names it, and the connection goes to the address that was checked.
  const allowed = parseAllowList(process.env[JOB_ALLOWED_HOSTS_ENV] ?? '');
  if (!allowed.ok) throw new Error(`${JOB_ALLOWED_HOSTS_ENV}: ${allowed.error}`);
  const decision = await decideHost(text(c.host ?? 'localhost'), allowed.list);
  if (!decision.allowed) throw new Error(refusalMessage(decision, JOB_ALLOWED_HOSTS_ENV));
  const client = new pg.Client({ host: decision.address, port: Number(c.port ?? 5432), user: text(c.user), password: c.password === undefined ? undefined : text(c.password), database: text(c.database), connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const columns = await client.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
      [schema],
    );
    const keys = await client.query<{ table_name: string; column_name: string }>(
      `SELECT tc.table_name, kcu.column_name FROM information_schema.table_constraints tc
         JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
        WHERE tc.table_schema = $1 AND tc.constraint_type = 'PRIMARY KEY' ORDER BY kcu.ordinal_position`,
      [schema],
    );
    const tables = [...new Set(columns.rows.map((r) => r.table_name))].filter((t) => !only || only.includes(t));
    const bookmarks = { ...((args.state?.bookmarks ?? {}) as Record<string, { replication_key_value?: unknown }>) };
    const out = new MessageWriter(args.catalog);
    const catalog: unknown[] = [];
    for (const table of tables) {
      const stream = `${schema}-${table}`;
      const cols = columns.rows.filter((r) => r.table_name === table);
      const jsonSchema = { type: 'object', properties: Object.fromEntries(cols.map((col) => [col.column_name, JSON_TYPES[col.data_type] ?? { type: ['string', 'null'] }])) };
      const key = keys.rows.filter((k) => k.table_name === table).map((k) => k.column_name);
      const replicationKey = replicationKeys[table];
      if (replicationKey !== undefined && !cols.some((col) => col.column_name === replicationKey)) throw new Error(`${table} has no column ${replicationKey} to replicate by`);
      if (args.discover) {
        catalog.push({ tap_stream_id: stream, stream, schema: jsonSchema, key_properties: key, ...(replicationKey ? { replication_key: replicationKey } : {}) });
        continue;
      }
      if (!isSelected(args.catalog, stream)) continue;
      await out.write({ type: 'SCHEMA', stream, schema: jsonSchema, key_properties: key });
      const ident = (name: string) => client.escapeIdentifier(name);
      const from = replicationKey ? bookmarks[stream]?.replication_key_value : undefined;
      const where = replicationKey && from !== undefined ? `WHERE ${ident(replicationKey)} > $1` : '';
      const order = replicationKey ? `ORDER BY ${ident(replicationKey)}` : '';
      await client.query('BEGIN READ ONLY');
      await client.query(`DECLARE rows NO SCROLL CURSOR FOR SELECT * FROM ${ident(schema)}.${ident(table)} ${where} ${order}`, where ? [from] : []);
      let count = 0;
      let size = FIRST_BATCH;
      for (;;) {
        const batch = await client.query<Record<string, unknown>>(`FETCH ${size} FROM rows`);
        const records = batch.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])));
        for (const record of records) {
          await out.write({ type: 'RECORD', stream, record });
          if (replicationKey) bookmarks[stream] = { replication_key_value: record[replicationKey] };
          count++;
        }
        if (records.length < size) break;
        await out.write({ type: 'STATE', value: { bookmarks: { ...bookmarks } } });
        size = nextBatch(bytesPerRow(records));
      }
      await client.query('COMMIT');
      await out.write({ type: 'STATE', value: { bookmarks: { ...bookmarks } } });
      log(NAME, `${stream}: ${count} records${replicationKey ? (from === undefined ? ` (full, by ${replicationKey})` : ` after ${text(from)}`) : ' (full table)'}`);
    }
    if (args.discover) process.stdout.write(`${JSON.stringify({ streams: catalog }, null, 2)}\n`);
  } finally {
    await client.end();
  }
  return 0;
});
