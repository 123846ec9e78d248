import { sql } from 'kysely';
import { POSTGRES_STORE_PLUGIN, postgresConnection } from '../../src/domain/dataStores';
import type { Db } from '../db/database';
import { storeDbOf, storesApart } from '../db/storeDatabase';
import { getDataStore, type DataStoreRow } from '../repositories/dataStores';
import { newId } from '../repositories/ids';
import { DEFAULT_STORE_PLUGIN, storeSchemaName } from '../stores/defaultStore';
import { ensureStoreRole } from '../stores/storeRole';
import type { AllowList } from '../security/netPolicy';
import { StoreUnreachable, checkPostgresStore, withTimeout } from '../stores/postgresStore';
import type { JobProcessResult } from './jobProcess';
import { appendLogLines } from './logs';
import type { JobRow } from './jobRow';
import { queueSignals } from './signals';

// A data store's connection check (spec 001 §4 Data stores): a DATASTORE_VERIFY job of the
// runner's queue. Saving a store queues one; the runner runs it in-process (it only opens a
// connection) and its end decides the store's state, READY or FAILED with the reason kept.

export const STORE_CHECK = 'DATASTORE_VERIFY';
const STORE_CHECK_TIMEOUT_SECONDS = 60;
const FAILED_PREFIX = 'Connection check failed: ';

/** Queues a check of the store unless one is already QUEUED or RUNNING (that one re-checks if the store changes meanwhile). */
export async function enqueueStoreCheck(db: Db, store: DataStoreRow, profileId: string | null): Promise<JobRow | undefined> {
  const now = new Date();
  const result = await sql<JobRow>`
    INSERT INTO jobs (id, workspace_id, profile_id, pipeline_id, datastore_id, type, status, triggered_by, attempt, max_attempts,
                      trigger_kind, run_after, timeout_seconds, created)
    VALUES (${newId()}, ${store.workspace_id}, ${profileId}, NULL, ${store.id}, ${STORE_CHECK}, 'QUEUED', ${`data store ${store.name}`}, 1, 1,
            'MANUAL', ${now}, ${STORE_CHECK_TIMEOUT_SECONDS}, ${now})
    ON CONFLICT (datastore_id) WHERE datastore_id IS NOT NULL AND status IN ('QUEUED', 'RUNNING') DO NOTHING
    RETURNING *`.execute(db);
  const job = result.rows[0];
  if (job) queueSignals.emit('queued', job.id);
  return job;
}

interface StoreCheckContext {
  /** private hosts a check may connect to (STORE_ALLOWED_HOSTS) */
  allowedHosts: AllowList;
  /** the server's log: the only place the real reason a store could not be reached is written */
  log: { warn(obj: object, msg: string): void };
}

/**
 * Runs a check: exit code 0 when the store can be loaded into, 1 with the reason logged when not.
 * A store that cannot be reached fails with one message whatever the cause (postgresStore.ts).
 */
export async function runStoreCheck(db: Db, job: JobRow, write: (line: string) => void, context: StoreCheckContext): Promise<JobProcessResult> {
  const store = job.datastore_id ? await getDataStore(db, job.datastore_id) : undefined;
  if (!store) throw new Error('The data store of this job no longer exists.');
  write(`Checking data store ${store.name} (${store.data_plugin}).`);
  try {
    if (store.data_plugin === DEFAULT_STORE_PLUGIN) {
      const schema = storeSchemaName(store.workspace_id);
      // apart (PGlite) the schema may wait for the store's first use (defaultStore.ts): this is one
      if (storesApart(db)) await ensureStoreRole(db, store.workspace_id);
      const found = await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = ${schema}`.execute(storeDbOf(db));
      if (found.rows[0]?.n !== 1) throw new Error(`the embedded store's schema ${schema} is missing`);
      write(`The embedded store's schema ${schema} is ready.`);
    } else if (store.data_plugin === POSTGRES_STORE_PLUGIN) {
      const check = checkPostgresStore(postgresConnection(store.properties), { allowedHosts: context.allowedHosts, report: write });
      await withTimeout(check, job.timeout_seconds * 1000, `no answer within ${job.timeout_seconds} s`);
    } else {
      throw new Error(`${store.data_plugin} cannot be checked on this machine`);
    }
    write('Connection check passed: the data store is READY.');
    return { reason: 'EXITED', exitCode: 0, signal: null };
  } catch (error) {
    if (error instanceof StoreUnreachable) context.log.warn({ jobId: job.id, dataStoreId: store.id, reason: error.detail }, 'store check: could not connect');
    write(`${FAILED_PREFIX}${error instanceof Error ? error.message || error.name : String(error)}`);
    return { reason: 'EXITED', exitCode: 1, signal: null };
  }
}

/**
 * Inside the transaction that ends a check: the store becomes READY (COMPLETE) or FAILED with the
 * logged reason — unless it was saved again while the check ran, when another check is queued.
 */
export async function settleStoreCheck(db: Db, job: JobRow, status: string): Promise<void> {
  if (!job.datastore_id || job.type !== STORE_CHECK) return;
  const store = await db.selectFrom('data_stores').selectAll().where('id', '=', job.datastore_id).forUpdate().executeTakeFirst();
  if (!store || store.draft) return;
  if (job.start_time && new Date(store.last_modified) > new Date(job.start_time)) {
    const next = await enqueueStoreCheck(db, store, job.profile_id);
    await appendLogLines(db, job.id, [`The data store changed while it was checked; ${next ? `job ${next.id} checks it again` : 'another check is already queued'}.`]);
    return;
  }
  if (status === 'COMPLETE') {
    await db.updateTable('data_stores').set({ status: 'READY', status_message: null }).where('id', '=', store.id).execute();
    return;
  }
  const reason = await db
    .selectFrom('job_logs')
    .select('message')
    .where('job_id', '=', job.id)
    .where('message', 'like', `${FAILED_PREFIX}%`)
    .orderBy('sequence', 'desc')
    .executeTakeFirst();
  const message = reason ? reason.message.slice(FAILED_PREFIX.length) : `the check ended ${status}`;
  await db.updateTable('data_stores').set({ status: 'FAILED', status_message: message.slice(0, 1000) }).where('id', '=', store.id).execute();
}
