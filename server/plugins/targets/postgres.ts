import { postgresConnection, postgresSettingErrors } from '../../../src/domain/dataStores';
import { copyRecords, prepareTable, type CopyMode } from '../../stores/loader';
import { openPostgresStore } from '../../stores/postgresStore';
import { tableShapeOf, type TableShape } from '../../stores/tableShape';
import { log, parseArguments, runPlugin, tablePrefixOf } from '../singer';
import { batchSizeOf, loadSingerStream } from '../singerLoader';

// target-postgres: loads Singer messages into an external PostgreSQL database — a table per
// stream created from its SCHEMA (new properties add columns), records upserted on key_properties
// in batches, and the latest STATE echoed on stdout only once every record before it is stored
// (singerLoader.ts).

const NAME = 'target-postgres';

runPlugin(NAME, async () => {
  const args = parseArguments(process.argv.slice(2));
  const { batch_size: batchSetting, table_prefix: prefixSetting, ...settings } = args.config;
  const prefix = tablePrefixOf(prefixSetting);
  const errors = Object.entries(postgresSettingErrors(settings, { draft: false })).map(([key, message]) => `${key} ${message}`);
  if (errors.length > 0) throw new Error(`invalid config: ${errors.join('; ')}`);
  const connection = postgresConnection(settings);
  const db = openPostgresStore(connection);
  const tables = new Map<string, { shape: TableShape; mode: CopyMode }>();
  try {
    await db.schema.createSchema(connection.schema).ifNotExists().execute();
    log(NAME, `loading into ${connection.host}:${connection.port}/${connection.database}, schema ${connection.schema}`);
    return await loadSingerStream(NAME, batchSizeOf(batchSetting), {
      prepare: async (stream, schema, keyProperties) => {
        const shape = tableShapeOf(stream, schema, keyProperties, prefix);
        await prepareTable(db, connection.schema, shape);
        tables.set(stream, { shape, mode: 'insert' });
        return { table: `${connection.schema}.${shape.table}`, shape };
      },
      // one transaction per flush: the STATE echoed after it never runs ahead of the rows it covers
      store: (batches) =>
        db.transaction().execute(async (trx) => {
          const loaded = new Map<string, number>();
          for (const { stream, data, records } of batches) {
            const table = tables.get(stream)!;
            const copied = await copyRecords(trx, connection.schema, table.shape, data, table.mode);
            table.mode = copied.mode;
            loaded.set(stream, records);
          }
          return loaded;
        }),
    });
  } finally {
    await db.destroy();
  }
});
