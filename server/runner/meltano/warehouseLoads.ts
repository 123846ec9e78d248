import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { recordLoad } from '../../repositories/freshness';

// Rows per stream and freshness for Meltano's loaders into the store (issue 37), which load
// without the runner's bridge and so are not counted batch by batch as target-store's are.
// singer-sdk plugins log `METRIC: {"type": "counter", "metric": "record_count", "value": n,
// "tags": {"stream": …}}` as they go, and Meltano relays each line into the job's log after the
// plugin's name. The tap's counters are the rows per stream it sent; the loader's are per stream
// as it received them after its stream maps, which is the table it wrote (the app's prefix
// included). They are recorded once the run ended well: a loader that failed may have committed
// none of them.

export class StreamRecordCounts {
  private readonly sent = new Map<string, number>();
  private readonly loaded = new Map<string, number>();

  /** @param loaders the names of the plugins whose counters are loads into the store */
  constructor(private readonly loaders: ReadonlySet<string>) {}

  /** a line of the job's log; anything but a record counter is ignored */
  observe(line: string): void {
    const found = /\]\s+(\S+)\s+METRIC: \{/.exec(line);
    if (!found) return;
    const metric = leadingObject(line.slice(found.index + found[0].length - 1));
    if (!metric || metric.type !== 'counter' || metric.metric !== 'record_count' || typeof metric.value !== 'number' || !Number.isFinite(metric.value)) return;
    const stream = (metric.tags as Record<string, unknown> | undefined)?.stream;
    if (typeof stream !== 'string' || stream.length === 0 || stream.length > 1000) return;
    const counts = this.loaders.has(found[1]!) ? this.loaded : this.sent;
    counts.set(stream, (counts.get(stream) ?? 0) + metric.value);
  }

  /** the extractors' records per stream */
  get byStream(): ReadonlyMap<string, number> {
    return this.sent;
  }

  /** the store's loaders' records per stream they wrote (their table) */
  get byTable(): ReadonlyMap<string, number> {
    return this.loaded;
  }
}

/** The JSON object at the start of `text` (Meltano appends its own `key=value` fields after it). */
function leadingObject(text: string): Record<string, unknown> | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        const value: unknown = JSON.parse(text.slice(0, i + 1));
        return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** target-postgres's table for the stream it received, as singer-sdk folds names in the common case: lower case, `_` for the rest. */
function warehouseTableOf(stream: string): string {
  return stream.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

/**
 * The job's rows (per stream as the tap sent them, in total as the loaders wrote them, as the
 * bridge adds them for target-store) and, for each table the store's schema holds, its freshness
 * (which job last loaded it).
 */
export async function recordWarehouseLoads(db: Db, load: { jobId: string; pipelineId: string; workspaceId: string; schema: string; counts: StreamRecordCounts }): Promise<string[]> {
  const { byStream, byTable } = load.counts;
  if (byStream.size === 0 && byTable.size === 0) return [];
  const { rows } = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables WHERE table_schema = ${load.schema}`.execute(db);
  const tables = new Set(rows.map((r) => r.table_name));
  const total = [...(byTable.size > 0 ? byTable : byStream).values()].reduce((a, b) => a + b, 0);
  const recorded: string[] = [];
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('jobs')
      .set({ rows_loaded: sql<number>`rows_loaded + ${total}`, rows_by_stream: sql<string>`rows_by_stream || ${JSON.stringify(Object.fromEntries(byStream))}::jsonb` })
      .where('id', '=', load.jobId)
      .execute();
    for (const [stream, count] of byTable) {
      const table = warehouseTableOf(stream);
      if (!tables.has(table)) continue;
      await recordLoad(trx, { workspaceId: load.workspaceId, table, jobId: load.jobId, pipelineId: load.pipelineId, rows: count });
      recorded.push(`${table} (${count} rows)`);
    }
  });
  return recorded;
}
