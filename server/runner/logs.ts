import type { Db } from '../db/database';

/** One stored line is at most this long; longer output is cut with a marker, so one runaway line cannot exhaust memory. */
const MAX_LINE_CHARS = 64 * 1024;
/** A batch is written at the latest this long after its first line arrived. */
const FLUSH_INTERVAL_MS = 100;
const MAX_BATCH = 500;

export interface LogLine {
  sequence: number;
  timestamp: Date;
  message: string;
}

/** PostgreSQL text cannot hold NUL; a trailing CR (CRLF output) is not part of the line. */
function cleanLine(raw: string): string {
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  line = line.replace(/\u0000/g, '\uFFFD');
  if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)} …[line cut at ${MAX_LINE_CHARS} characters]`;
  return line;
}

/**
 * Writes a running job's output in small batches: every line is committed within
 * FLUSH_INTERVAL_MS of arriving, in arrival order, with increasing sequence numbers. Only the
 * job's owner writes while it runs, so the sequence counter can live here.
 */
export class LogWriter {
  private buffer: LogLine[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private failed: Error | undefined;

  constructor(
    private readonly db: Db,
    private readonly jobId: string,
    private sequence: number,
    private readonly onWritten: (jobId: string, lastSequence: number) => void = () => undefined,
  ) {}

  get lastSequence(): number {
    return this.sequence;
  }

  write(message: string): void {
    this.sequence += 1;
    this.buffer.push({ sequence: this.sequence, timestamp: new Date(), message: cleanLine(message) });
    if (this.buffer.length >= MAX_BATCH) this.flushSoon(0);
    else this.flushSoon(FLUSH_INTERVAL_MS);
  }

  /** Writes what is buffered and waits for every earlier write. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    // Output that came faster than the timer fired is written in batches of MAX_BATCH: one insert
    // of 60,000 lines would pass PostgreSQL's 65,535 parameters and lose them all.
    for (let start = 0; start < batch.length; start += MAX_BATCH) {
      const part = batch.slice(start, start + MAX_BATCH);
      this.chain = this.chain.then(() => this.insert(part));
    }
    await this.chain;
    if (this.failed) throw this.failed;
  }

  private flushSoon(delay: number): void {
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), delay);
  }

  private async insert(batch: LogLine[]): Promise<void> {
    try {
      await this.db
        .insertInto('job_logs')
        .values(batch.map((line) => ({ job_id: this.jobId, sequence: line.sequence, timestamp: line.timestamp, message: line.message })))
        .execute();
      this.onWritten(this.jobId, batch[batch.length - 1]!.sequence);
    } catch (error) {
      this.failed = error instanceof Error ? error : new Error(String(error));
    }
  }
}

/** Appends lines after the job's last one (for writers that do not own the job: recovery, withdraw, enqueue). */
export async function appendLogLines(db: Db, jobId: string, messages: readonly string[], at: Date = new Date()): Promise<void> {
  if (messages.length === 0) return;
  const last = await db.selectFrom('job_logs').select((eb) => eb.fn.max('sequence').as('last')).where('job_id', '=', jobId).executeTakeFirst();
  const start = Number(last?.last ?? 0);
  await db
    .insertInto('job_logs')
    .values(messages.map((message, i) => ({ job_id: jobId, sequence: start + i + 1, timestamp: at, message: cleanLine(message) })))
    .execute();
}

export async function lastLogSequence(db: Db, jobId: string): Promise<number> {
  const row = await db.selectFrom('job_logs').select((eb) => eb.fn.max('sequence').as('last')).where('job_id', '=', jobId).executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** Lines after `afterSequence`, oldest first, at most `limit` (1..10 000). */
export async function readLogs(db: Db, jobId: string, afterSequence = 0, limit = 1000): Promise<LogLine[]> {
  const size = Math.max(1, Math.min(Number.isFinite(limit) ? Math.floor(limit) : 1000, 10_000));
  const after = Number.isFinite(afterSequence) ? Math.max(0, Math.floor(afterSequence)) : 0;
  const rows = await db
    .selectFrom('job_logs')
    .select(['sequence', 'timestamp', 'message'])
    .where('job_id', '=', jobId)
    .where('sequence', '>', after)
    .orderBy('sequence')
    .limit(size)
    .execute();
  return rows.map((r) => ({ sequence: Number(r.sequence), timestamp: new Date(r.timestamp), message: r.message }));
}
