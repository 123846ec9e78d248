import type { CatalogStream } from '../../src/domain/streamSelection';
import type { Db } from '../db/database';

// Extractors' discovered streams (stream_catalogs, migration 030), per workspace and configuration.

/** The catalogs a workspace keeps: the newest, so settings tried and left behind do not pile up (at most 20 MiB, CATALOG_LIMITS.bytes each). */
const CATALOGS_KEPT = 20;

interface StreamCatalogRow {
  catalog_key: string;
  streams: CatalogStream[];
  discovered: Date;
  job_id: string | null;
}

export function catalogsOf(db: Db, workspaceId: string, keys: readonly string[]): Promise<StreamCatalogRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.selectFrom('stream_catalogs').select(['catalog_key', 'streams', 'discovered', 'job_id']).where('workspace_id', '=', workspaceId).where('catalog_key', 'in', keys).execute();
}

export async function saveCatalog(db: Db, row: { workspaceId: string; key: string; streams: CatalogStream[]; jobId: string }): Promise<void> {
  const streams = JSON.stringify(row.streams);
  await db
    .insertInto('stream_catalogs')
    .values({ workspace_id: row.workspaceId, catalog_key: row.key, streams, job_id: row.jobId, discovered: new Date() })
    .onConflict((oc) => oc.columns(['workspace_id', 'catalog_key']).doUpdateSet({ streams, job_id: row.jobId, discovered: new Date() }))
    .execute();
  await db
    .deleteFrom('stream_catalogs')
    .where('workspace_id', '=', row.workspaceId)
    .where('catalog_key', 'not in', (qb) => qb.selectFrom('stream_catalogs').select('catalog_key').where('workspace_id', '=', row.workspaceId).orderBy('discovered', 'desc').limit(CATALOGS_KEPT))
    .execute();
}
