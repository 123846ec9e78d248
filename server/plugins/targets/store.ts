import { BridgeClient } from '../bridgeClient';
import { lines, log, parseArguments, parseMessage, runPlugin, tablePrefixOf } from '../singer';

// target-store: loads Singer messages into the workspace's default data store through the
// runner bridge — a table per stream (from its SCHEMA), records upserted on key_properties, and
// the latest STATE echoed on stdout once every record before it is stored.

const NAME = 'target-store';

runPlugin(NAME, async () => {
  const args = parseArguments(process.argv.slice(2));
  const batchSize = Math.max(1, Math.min(Number(args.config.batch_size ?? 1000) || 1000, 50_000));
  const tablePrefix = tablePrefixOf(args.config.table_prefix);
  const bridge = BridgeClient.fromEnv();
  if (!bridge) throw new Error('target-store loads only inside a job of this server (RUNNER_BRIDGE is not set)');
  const buffers = new Map<string, Record<string, unknown>[]>();
  const prepared = new Set<string>();
  const loaded = new Map<string, number>();
  let buffered = 0;
  let pendingState: Record<string, unknown> | undefined;

  const flush = async () => {
    for (const [stream, records] of buffers) {
      if (records.length === 0) continue;
      const result = (await bridge.request('store.load', { stream, records })) as { rows: number };
      loaded.set(stream, (loaded.get(stream) ?? 0) + result.rows);
    }
    buffers.clear();
    buffered = 0;
    if (pendingState) {
      process.stdout.write(`${JSON.stringify({ type: 'STATE', value: pendingState })}\n`);
      pendingState = undefined;
    }
  };

  try {
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
        const table = (await bridge.request('store.prepare', { stream: message.stream, schema: message.schema, keyProperties: message.key_properties, tablePrefix })) as { table: string };
        if (!prepared.has(message.stream)) log(NAME, `stream ${message.stream} → table ${table.table}`);
        prepared.add(message.stream);
      } else if (message.type === 'RECORD') {
        if (!prepared.has(message.stream)) {
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
    bridge.close();
  }
  const total = [...loaded.values()].reduce((a, b) => a + b, 0);
  log(NAME, `loaded ${total} rows${loaded.size > 0 ? `: ${[...loaded].map(([s, n]) => `${s} ${n}`).join(', ')}` : ''}`);
  return 0;
});
