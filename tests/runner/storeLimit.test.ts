import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDbOf } from '../../server/db/storeDatabase';
import { enqueueJob } from '../../server/runner';
import { storeSchemaName } from '../../server/stores/storeRole';
import { storeSizeBytes } from '../../server/stores/storeSize';
import { logOf, startBench, waitForStatus, type Bench } from './helpers';

// Issue 36: loading into a workspace's store has a size limit (STORE_MAX_MB). A load through the
// runner's bridge that would take the store past it is refused, the rows before it stay, and the
// job's log says so in one line naming the setting.

const LIMIT_MB = 2;
/** 10,000 records of about 110 bytes a batch (target-store's default batch): the second batch no longer fits. */
const SCRIPT = [
  `{ printf '%s\\n' '{"type":"SCHEMA","stream":"padded","schema":{"properties":{"id":{"type":"integer"},"pad":{"type":"string"}}},"key_properties":["id"]}'`,
  `pad=$(head -c 100 /dev/zero | tr '\\0' x)`,
  `for i in $(seq 1 30000); do printf '{"type":"RECORD","stream":"padded","record":{"id":%d,"pad":"%s"}}\\n' "$i" "$pad"; done; } | target-store`,
].join('\n');

describe('the store size limit (STORE_MAX_MB)', () => {
  let bench: Bench;
  const saved = process.env.STORE_MAX_MB;
  beforeAll(async () => {
    bench = await startBench();
    // the bridge reads STORE_MAX_MB when the runner makes it
    process.env.STORE_MAX_MB = String(LIMIT_MB);
    await bench.startRunner();
    await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.STORE_MAX_MB;
    else process.env.STORE_MAX_MB = saved;
    await bench.close();
  });

  it('refuses the load that would take the store past the limit, keeps what fitted, and logs one line naming the setting', async () => {
    const pipeline = await bench.pipeline({ name: 'too big', script: SCRIPT });
    const queued = await enqueueJob(bench.db, pipeline.id, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 60_000);
    const log = await logOf(bench.db, job.id);
    expect(job.status, log.join('\n')).toBe('ERROR');
    const named = log.filter((line) => line.includes('STORE_MAX_MB'));
    expect(named, log.join('\n')).toHaveLength(1);
    expect(named[0]).toMatch(new RegExp(`past its limit of ${LIMIT_MB} MB \\(STORE_MAX_MB\\)`));
    // the first batch fitted and stays; the refused one left nothing
    const schema = storeSchemaName(bench.workspaceId);
    const rows = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.id(schema, 'padded')}`.execute(storeDbOf(bench.db))).rows[0]?.n;
    expect(rows).toBe(10_000);
    expect(Number(job.rows_loaded)).toBe(10_000);
    expect(await storeSizeBytes(bench.db, bench.workspaceId)).toBeLessThanOrEqual(LIMIT_MB * 1_048_576);
  });
});
