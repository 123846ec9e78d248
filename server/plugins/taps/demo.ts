import { DAY_MS, DEMO_STREAMS, dayIndex, type Row } from './demoData';
import { MessageWriter, isSelected, log, parseArguments, runPlugin, text, type CatalogStream } from '../singer';

// tap-demo: customers, orders and web sessions, incremental by each stream's replication key.

const NAME = 'tap-demo';

function dateSetting(value: unknown, fallback: Date, what: string): Date {
  if (value === undefined || value === null || value === '') return fallback;
  const date = new Date(text(value));
  if (Number.isNaN(date.getTime())) throw new Error(`${what} is not a date: ${text(value)}`);
  return date;
}

function intSetting(value: unknown, fallback: number, min: number, max: number, what: string): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${what} must be a whole number from ${min} to ${max}`);
  return n;
}

function catalog(): { streams: CatalogStream[] } {
  return {
    streams: Object.entries(DEMO_STREAMS).map(([name, s]) => ({
      tap_stream_id: name,
      stream: name,
      schema: s.schema,
      key_properties: [...s.key],
      replication_key: s.replicationKey,
      metadata: [{ breadcrumb: [], metadata: { selected: true, 'table-key-properties': [...s.key], 'valid-replication-keys': [s.replicationKey], 'forced-replication-method': 'INCREMENTAL' } }],
    })),
  };
}

runPlugin(NAME, async () => {
  const args = parseArguments(process.argv.slice(2));
  if (args.discover) {
    process.stdout.write(`${JSON.stringify(catalog(), null, 2)}\n`);
    return 0;
  }
  const now = new Date();
  const end = dateSetting(args.config.end_date, now, 'end_date');
  const start = dateSetting(args.config.start_date, new Date(end.getTime() - 90 * DAY_MS), 'start_date');
  const options = { seed: intSetting(args.config.seed, 42, 0, 2 ** 31 - 1, 'seed'), scale: intSetting(args.config.scale, 1, 1, 100, 'scale') };
  const cutoff = new Date(Math.min(end.getTime() + DAY_MS - 1, now.getTime()));
  const firstDay = dayIndex(start);
  const lastDay = dayIndex(cutoff);
  if (lastDay - firstDay > 3660) throw new Error('start_date is more than ten years before end_date');
  const bookmarks = (args.state?.bookmarks ?? {}) as Record<string, { replication_key_value?: unknown }>;
  const out = new MessageWriter(args.catalog);
  const state: Record<string, { replication_key: string; replication_key_value: string }> = {};
  for (const [name, value] of Object.entries(bookmarks)) {
    if (typeof value?.replication_key_value === 'string') state[name] = { replication_key: String((DEMO_STREAMS as Record<string, { replicationKey: string }>)[name]?.replicationKey ?? ''), replication_key_value: value.replication_key_value };
  }

  for (const [name, stream] of Object.entries(DEMO_STREAMS)) {
    if (!isSelected(args.catalog, name)) continue;
    await out.write({ type: 'SCHEMA', stream: name, schema: stream.schema as unknown as Record<string, unknown>, key_properties: [...stream.key], bookmark_properties: [stream.replicationKey] } as never);
    const bookmark = state[name]?.replication_key_value;
    const from = bookmark ? Math.max(firstDay, dayIndex(new Date(bookmark))) : firstDay;
    let count = 0;
    for (let day = from; day <= lastDay; day++) {
      const rows: Row[] = stream.rows(day, firstDay, options);
      for (const row of rows) {
        const key = String(row[stream.replicationKey]);
        if ((bookmark && key <= bookmark) || key > cutoff.toISOString() || key < start.toISOString()) continue;
        await out.write({ type: 'RECORD', stream: name, record: row });
        state[name] = { replication_key: stream.replicationKey, replication_key_value: key };
        count++;
      }
      if ((day - from) % 7 === 6 || day === lastDay) await out.write({ type: 'STATE', value: { bookmarks: { ...state } } });
    }
    log(NAME, `${name}: ${count} records${bookmark ? ` after ${bookmark}` : ''}`);
  }
  await out.write({ type: 'STATE', value: { bookmarks: { ...state } } });
  return 0;
});
