import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { Paging } from '../http/hal';

/** A resource without its bytes: what lists and links need. */
export interface ResourceMeta {
  workspace_id: string;
  path: string;
  content_type: string;
  size: number;
  created: Date;
  last_modified: Date;
}

const META = ['workspace_id', 'path', 'content_type', 'size', 'created', 'last_modified'] as const;

const SORTABLE = { path: 'path', lastModified: 'last_modified', created: 'created', size: 'size' } as const;
export const RESOURCE_SORT_FIELDS = Object.keys(SORTABLE);

/** A page of the workspace's resources, by path unless the paging sorts otherwise. */
export async function listResources(db: Db, workspaceId: string, paging: Paging): Promise<{ items: ResourceMeta[]; total: number }> {
  const field = SORTABLE[(paging.sort?.field ?? 'path') as keyof typeof SORTABLE];
  const direction = paging.sort?.direction ?? 'asc';
  const [items, count] = await Promise.all([
    db
      .selectFrom('workspace_resources')
      .select(META)
      .where('workspace_id', '=', workspaceId)
      .orderBy(field, direction)
      .orderBy('path', 'asc')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    db.selectFrom('workspace_resources').select(sql<number>`count(*)::int`.as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow(),
  ]);
  return { items, total: count.n };
}

export function findResource(db: Db, workspaceId: string, path: string): Promise<ResourceMeta | undefined> {
  return db.selectFrom('workspace_resources').select(META).where('workspace_id', '=', workspaceId).where('path', '=', path).executeTakeFirst();
}

/** The bytes of a resource (a Buffer whichever driver read them). */
export async function resourceContent(db: Db, workspaceId: string, path: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('workspace_resources').select('content').where('workspace_id', '=', workspaceId).where('path', '=', path).executeTakeFirst();
  return row === undefined ? undefined : Buffer.from(row.content);
}

export interface ResourceWrite {
  workspaceId: string;
  path: string;
  content: Buffer;
  contentType: string;
  profileId: string | null;
}

export type WriteResult = { ok: true; created: boolean; resource: ResourceMeta } | { ok: false; reason: 'QUOTA' };

/**
 * Creates or replaces the resource at its path, unless the workspace's resources would then hold
 * more than `quotaBytes` together. The workspace row is locked for the check and the write, so two
 * concurrent uploads cannot both pass a quota only one of them fits.
 */
export async function writeResource(db: Db, write: ResourceWrite, quotaBytes: number): Promise<WriteResult> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('workspaces').select('id').where('id', '=', write.workspaceId).forUpdate().executeTakeFirst();
    const { used } = await trx
      .selectFrom('workspace_resources')
      .select(sql<number>`coalesce(sum(size), 0)::bigint`.as('used'))
      .where('workspace_id', '=', write.workspaceId)
      .where('path', '<>', write.path)
      .executeTakeFirstOrThrow();
    if (Number(used) + write.content.length > quotaBytes) return { ok: false, reason: 'QUOTA' } as const;
    const existed = await findResource(trx, write.workspaceId, write.path);
    const resource = await trx
      .insertInto('workspace_resources')
      .values({ workspace_id: write.workspaceId, path: write.path, content: write.content, content_type: write.contentType, size: write.content.length, created_by: write.profileId })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'path']).doUpdateSet({ content: write.content, content_type: write.contentType, size: write.content.length, last_modified: sql`now()` }),
      )
      .returning(META)
      .executeTakeFirstOrThrow();
    return { ok: true, created: existed === undefined, resource } as const;
  });
}

export async function deleteResource(db: Db, workspaceId: string, path: string): Promise<boolean> {
  const result = await db.deleteFrom('workspace_resources').where('workspace_id', '=', workspaceId).where('path', '=', path).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
