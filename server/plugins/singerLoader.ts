import { CopyBatch, MAX_BATCH_RECORDS } from '../stores/copyText';
import type { TableShape } from '../stores/tableShape';
import { lineBatches, log, parseMessage, type JsonSchema } from './singer';

// The loop both built-in loaders share (target-store, target-postgres): Singer messages from
// stdin, each record made a row of COPY's text format as it arrives and buffered per stream up to
// a batch, a SCHEMA first readying its table, and the latest STATE echoed on stdout only once
// every record before it is stored. Where the rows go is the loader's own (its sink).
//
// One batch is stored while the next is read: the tap, this loop and the database work at once,
// and at most two batches are held, so memory stays constant however many rows flow. A tap that
// writes faster waits on its full pipe (back-pressure).

/** A batch of one stream: its rows in COPY's text format, how many records the tap sent for them. */
interface StreamBatch {
  stream: string;
  data: Buffer;
  records: number;
}

interface LoaderSink {
  /** a stream's SCHEMA: its table made or widened; returns the table's name for the log and the shape its rows are written in */
  prepare(stream: string, schema: JsonSchema, keyProperties: string[]): Promise<{ table: string; shape: TableShape }>;
  /** the batches of a flush, stored together; returns the records each stream loaded */
  store(batches: readonly StreamBatch[]): Promise<ReadonlyMap<string, number>>;
}

/** A loader's `batch_size` setting: 10,000 by default, from 1 to 100,000. */
export function batchSizeOf(value: unknown): number {
  return Math.max(1, Math.min(Number(value ?? DEFAULT_BATCH_SIZE) || DEFAULT_BATCH_SIZE, MAX_BATCH_RECORDS));
}

export const DEFAULT_BATCH_SIZE = 10_000;

/** A batch is flushed at this many bytes too, whatever its rows: wide records stay within constant memory. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/**
 * RECORD lines read without their envelope: most taps write each record as
 * `{"type":"RECORD","stream":"…","record":{…}}` and nothing else, and parsing the envelope was a
 * third of a loader's parsing. A line of a stream whose SCHEMA came, in exactly that form, has
 * only its record parsed; any other line (spaces, more fields, another order) is left to
 * parseMessage, which reads the same message from it.
 */
export class RecordLines {
  private readonly prefixes: Array<{ prefix: string; stream: string }> = [];
  /** the stream of the last line read here: a tap sends a stream's records one after another */
  private last = 0;

  know(stream: string): void {
    if (!this.prefixes.some((p) => p.stream === stream)) this.prefixes.push({ prefix: `{"type":"RECORD","stream":${JSON.stringify(stream)},"record":{`, stream });
  }

  read(line: string): { stream: string; record: Record<string, unknown> } | undefined {
    if (!line.endsWith('}}')) return undefined;
    for (let n = 0; n < this.prefixes.length; n++) {
      const at = (this.last + n) % this.prefixes.length;
      const { prefix, stream } = this.prefixes[at]!;
      if (!line.startsWith(prefix)) continue;
      let record: unknown;
      try {
        // from the record's opening brace to the envelope's closing one, left out
        record = JSON.parse(line.slice(prefix.length - 1, -1));
      } catch {
        return undefined;
      }
      this.last = at;
      return { stream, record: record as Record<string, unknown> };
    }
    return undefined;
  }
}

/** Loads stdin's Singer messages through the sink; the process's exit code (2: a message it cannot read). */
export async function loadSingerStream(name: string, batchSize: number, sink: LoaderSink): Promise<number> {
  const batches = new Map<string, CopyBatch>();
  const loaded = new Map<string, number>();
  let buffered = 0;
  let bytes = 0;
  let pendingState: Record<string, unknown> | undefined;
  let storing: Promise<void> = Promise.resolve();

  /** Hands the buffered rows to the sink and returns once the batch before them is stored. */
  const flush = async () => {
    const taken: StreamBatch[] = [];
    for (const [stream, batch] of batches) if (batch.records > 0) taken.push({ stream, ...batch.take() });
    const state = pendingState;
    buffered = 0;
    bytes = 0;
    pendingState = undefined;
    if (taken.length === 0 && !state) return;
    await storing;
    storing = (async () => {
      if (taken.length > 0) for (const [stream, rows] of await sink.store(taken)) loaded.set(stream, (loaded.get(stream) ?? 0) + rows);
      if (state) process.stdout.write(`${JSON.stringify({ type: 'STATE', value: state })}\n`);
    })();
    // a failure surfaces at the next await of `storing` (the next flush, or the end)
    storing.catch(() => undefined);
  };

  /** Adds a record to its stream's batch; whether the batches are full. */
  const add = (batch: CopyBatch, record: Record<string, unknown>): boolean => {
    const before = batch.bytes;
    batch.add(record);
    bytes += batch.bytes - before;
    return ++buffered >= batchSize || bytes >= MAX_BATCH_BYTES;
  };

  let number = 0;
  const records = new RecordLines();
  for await (const batch of lineBatches(process.stdin)) for (const line of batch) {
    number++;
    const fast = records.read(line);
    if (fast) {
      if (add(batches.get(fast.stream)!, fast.record)) await flush();
      continue;
    }
    if (line.trim() === '') continue;
    const parsed = parseMessage(line);
    if (!parsed.ok) {
      log(name, `ERROR line ${number} is not a valid Singer message (${parsed.error}): ${line.slice(0, 200)}`);
      await storing;
      return 2;
    }
    const message = parsed.message;
    if (message.type === 'SCHEMA') {
      await flush();
      // the table changes only once the rows written in its former shape are in
      await storing;
      const prepared = await sink.prepare(message.stream, message.schema, message.key_properties ?? []);
      if (!batches.has(message.stream)) log(name, `stream ${message.stream} → table ${prepared.table}`);
      batches.set(message.stream, new CopyBatch(prepared.shape));
      records.know(message.stream);
    } else if (message.type === 'RECORD') {
      const batch = batches.get(message.stream);
      if (!batch) {
        log(name, `ERROR line ${number}: RECORD of stream ${message.stream} before its SCHEMA`);
        await storing;
        return 2;
      }
      if (add(batch, message.record)) await flush();
    } else if (message.type === 'STATE') {
      pendingState = message.value;
    }
  }
  await flush();
  await storing;
  const total = [...loaded.values()].reduce((a, b) => a + b, 0);
  log(name, `loaded ${total} rows${loaded.size > 0 ? `: ${[...loaded].map(([s, n]) => `${s} ${n}`).join(', ')}` : ''}`);
  return 0;
}
