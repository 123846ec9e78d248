import { postgresConnection, postgresSettingErrors } from '../../../src/domain/dataStores';
import { tablePrefixOf } from '../singer';
import { loadRecords, prepareTable } from '../../stores/loader';
import { openPostgresStore } from '../../stores/postgresStore';
import { tableShapeOf, type TableShape } from '../../stores/tableShape';
import { lines, log, parseArguments, parseMessage, runPlugin } from '../singer';

// target-postgres: loads Singer messages into an external PostgreSQL database — a table per
// stream created from its SCHEMA (new properties add columns), records upserted on key_properties
// in batches, and the latest STATE echoed on stdout only once every record before it is stored.

const NAME = 'target-postgres';

runPlugin(NAME, async () => {
  const args = parseArguments(process.argv.slice(2));
  const { batch_size: batchSetting, table_prefix: prefixSetting, ...settings } = args.config;
  const prefix = tablePrefixOf(prefixSetting);
  const errors = Object.entries(postgresSettingErrors(settings, { draft: false })).map(([key, message]) => `${key} ${message}`);
  if (errors.length > 0) throw new Error(`invalid config: ${errors.join('; ')}`);
  const connection = postgresConnection(settings);
  const batchSize = Math.max(1, Math.min(Number(batchSetting ?? 1000) || 1000, 50_000));
  const db = openPostgresStore(connection);
  const shapes = new Map<string, TableShape>();
  const buffers = new Map<string, Record<string, unknown>[]>();
  const loaded = new Map<string, number>();
  let buffered = 0;
  let pendingState: Record<string, unknown> | undefined;

  const flush = async () => {
    if (buffered > 0) {
      // One transaction per flush: the STATE echoed after it never runs ahead of the rows it covers.
      await db.transaction().execute(async (trx) => {
        for (const [stream, records] of buffers) {
          const rows = await loadRecords(trx, connection.schema, shapes.get(stream)!, records);
          loaded.set(stream, (loaded.get(stream) ?? 0) + rows);
        }
      });
    }
    buffers.clear();
    buffered = 0;
    if (pendingState) {
      process.stdout.write(`${JSON.stringify({ type: 'STATE', value: pendingState })}\n`);
      pendingState = undefined;
    }
  };

  try {
    await db.schema.createSchema(connection.schema).ifNotExists().execute();
    log(NAME, `loading into ${connection.host}:${connection.port}/${connection.database}, schema ${connection.schema}`);
    let number = 0;
    for await (const line of lines(process.stdin)) {
      number++;
      if (line.trim() === '') continue;
      const parsed = parseMessage(line);
      if (!parsed.ok) {
        log(NAME, `ERROR line ${number} is not a valid Singer message (${parsed.error}): ${line.slice(0, 200)}`);
        return 2;
      }
      const message = parsed.message;
      if (message.type === 'SCHEMA') {
        await flush();
        const shape = tableShapeOf(message.stream, message.schema, message.key_properties ?? [], prefix);
        await prepareTable(db, connection.schema, shape);
        if (!shapes.has(message.stream)) log(NAME, `stream ${message.stream} → table ${connection.schema}.${shape.table}`);
        shapes.set(message.stream, shape);
      } else if (message.type === 'RECORD') {
        if (!shapes.has(message.stream)) {
          log(NAME, `ERROR line ${number}: RECORD of stream ${message.stream} before its SCHEMA`);
          return 2;
        }
        const list = buffers.get(message.stream) ?? [];
        list.push(message.record);
        buffers.set(message.stream, list);
        if (++buffered >= batchSize) await flush();
      } else if (message.type === 'STATE') {
        pendingState = message.value;
      }
    }
    await flush();
  } finally {
    await db.destroy();
  }
  const total = [...loaded.values()].reduce((a, b) => a + b, 0);
  log(NAME, `loaded ${total} rows${loaded.size > 0 ? `: ${[...loaded].map(([s, n]) => `${s} ${n}`).join(', ')}` : ''}`);
  return 0;
});
