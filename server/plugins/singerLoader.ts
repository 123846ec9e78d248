import { lines, log, parseMessage, type JsonSchema } from './singer';

// The loop both built-in loaders share (target-store, target-postgres): Singer messages from
// stdin, records buffered per stream up to a batch, a SCHEMA first readying its table, and the
// latest STATE echoed on stdout only once every record before it is stored. Where the rows go is
// the loader's own (its sink).

export interface LoaderSink {
  /** a stream's SCHEMA: its table made or widened; returns the table's name for the log */
  prepare(stream: string, schema: JsonSchema, keyProperties: string[]): Promise<string>;
  /** the buffered records of each stream, stored together; returns the rows each stream loaded */
  store(batches: ReadonlyMap<string, Record<string, unknown>[]>): Promise<ReadonlyMap<string, number>>;
}

/** A loader's `batch_size` setting: 1000 by default, from 1 to 50,000. */
export function batchSizeOf(value: unknown): number {
  return Math.max(1, Math.min(Number(value ?? 1000) || 1000, 50_000));
}

/** Loads stdin's Singer messages through the sink; the process's exit code (2: a message it cannot read). */
export async function loadSingerStream(name: string, batchSize: number, sink: LoaderSink): Promise<number> {
  const buffers = new Map<string, Record<string, unknown>[]>();
  const prepared = new Set<string>();
  const loaded = new Map<string, number>();
  let buffered = 0;
  let pendingState: Record<string, unknown> | undefined;

  const flush = async () => {
    if (buffered > 0) for (const [stream, rows] of await sink.store(buffers)) loaded.set(stream, (loaded.get(stream) ?? 0) + rows);
    buffers.clear();
    buffered = 0;
    if (pendingState) {
      process.stdout.write(`${JSON.stringify({ type: 'STATE', value: pendingState })}\n`);
      pendingState = undefined;
    }
  };

  let number = 0;
  for await (const line of lines(process.stdin)) {
    number++;
    if (line.trim() === '') continue;
    const parsed = parseMessage(line);
    if (!parsed.ok) {
      log(name, `ERROR line ${number} is not a valid Singer message (${parsed.error}): ${line.slice(0, 200)}`);
      return 2;
    }
    const message = parsed.message;
    if (message.type === 'SCHEMA') {
      await flush();
      const table = await sink.prepare(message.stream, message.schema, message.key_properties ?? []);
      if (!prepared.has(message.stream)) log(name, `stream ${message.stream} → table ${table}`);
      prepared.add(message.stream);
    } else if (message.type === 'RECORD') {
      if (!prepared.has(message.stream)) {
        log(name, `ERROR line ${number}: RECORD of stream ${message.stream} before its SCHEMA`);
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
  const total = [...loaded.values()].reduce((a, b) => a + b, 0);
  log(name, `loaded ${total} rows${loaded.size > 0 ? `: ${[...loaded].map(([s, n]) => `${s} ${n}`).join(', ')}` : ''}`);
  return 0;
}
