import type { TableShape } from '../../stores/tableShape';
import { BridgeClient } from '../bridgeClient';
import { parseArguments, runPlugin, tablePrefixOf } from '../singer';
import { batchSizeOf, loadSingerStream } from '../singerLoader';

// target-store: loads Singer messages into the workspace's default data store through the
// runner bridge — a table per stream (from its SCHEMA), records upserted on key_properties in
// batches sent as COPY rows, and
// the latest STATE echoed on stdout once every record before it is stored (singerLoader.ts).

const NAME = 'target-store';

runPlugin(NAME, async () => {
  const args = parseArguments(process.argv.slice(2));
  const tablePrefix = tablePrefixOf(args.config.table_prefix);
  const bridge = BridgeClient.fromEnv();
  if (!bridge) throw new Error('target-store loads only inside a job of this server (RUNNER_BRIDGE is not set)');
  try {
    return await loadSingerStream(NAME, batchSizeOf(args.config.batch_size), {
      prepare: async (stream, schema, keyProperties) => (await bridge.request('store.prepare', { stream, schema, keyProperties, tablePrefix })) as { table: string; shape: TableShape },
      store: async (batches) => {
        const loaded = new Map<string, number>();
        // each stream's batch is a transaction of the bridge's, with its rows counted in the job
        for (const { stream, data, records } of batches) loaded.set(stream, ((await bridge.request('store.copy', { stream, records }, data)) as { rows: number }).rows);
        return loaded;
      },
    });
  } finally {
    bridge.close();
  }
});
