import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { Paging } from '../http/hal';

/** A resource without its bytes: what lists and links need. */
export interface ResourceMeta {
  workspace_id: string;
  path: string;
  content_type: string;
  size: number;
  /** SHA-256 of the bytes, hex */
  digest: string;
  created: Date;
  last_modified: Date;
}

const META = ['workspace_id', 'path', 'content_type', 'size', 'digest', 'created', 'last_modified'] as const;

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

/** A chunk of a file's bytes: what one statement reads or writes. */
export const RESOURCE_CHUNK_BYTES = 1024 * 1024;

/** Bytes to store: their size and SHA-256 known before they are written, read a chunk at a time. */
export interface ResourceBytes {
  size: number;
  digest: string;
  /** the bytes in order, in pieces of at most RESOURCE_CHUNK_BYTES */
  chunks: () => AsyncIterable<Buffer> | Iterable<Buffer>;
}

/** Bytes already in memory (the reference's JSON body, the demo's small files). */
export function bytesOf(content: Buffer): ResourceBytes {
  return {
    size: content.length,
    digest: createHash('sha256').update(content).digest('hex'),
    *chunks() {
      for (let at = 0; at < content.length; at += RESOURCE_CHUNK_BYTES) yield content.subarray(at, at + RESOURCE_CHUNK_BYTES);
    },
  };
}

/** The resource was replaced or deleted while its bytes were being read. */
export class ResourceChanged extends Error {}

/**
 * The bytes of a stored resource, a chunk per query, in order: constant memory whatever its size.
 * Each chunk is read only while the resource still has the digest it was listed with, so a reader
 * never joins the start of one version to the end of another: it fails with ResourceChanged.
 */
export async function* resourceChunks(db: Db, resource: Pick<ResourceMeta, 'workspace_id' | 'path' | 'size' | 'digest'>): AsyncGenerator<Buffer> {
  let read = 0;
  for (let seq = 0; read < resource.size; seq += 1) {
    const row = await db
      .selectFrom('workspace_resource_chunks as c')
      .innerJoin('workspace_resources as r', (join) => join.onRef('r.workspace_id', '=', 'c.workspace_id').onRef('r.path', '=', 'c.path'))
      .select('c.bytes')
      .where('c.workspace_id', '=', resource.workspace_id)
      .where('c.path', '=', resource.path)
      .where('c.seq', '=', seq)
      .where('r.digest', '=', resource.digest)
      .executeTakeFirst();
    if (row === undefined) throw new ResourceChanged(`${resource.path} changed while it was read`);
    const chunk = Buffer.from(row.bytes);
    read += chunk.length;
    yield chunk;
  }
}

interface ResourceWrite {
  workspaceId: string;
  path: string;
  content: ResourceBytes;
  contentType: string;
  profileId: string | null;
}

type WriteResult = { ok: true; created: boolean; resource: ResourceMeta } | { ok: false; reason: 'QUOTA' };

/**
 * Creates or replaces the resource at its path, unless the workspace's resources would then hold
 * more than `quotaBytes` together. The workspace row is locked for the check and the write, so two
 * concurrent uploads cannot both pass a quota only one of them fits; the bytes are written in the
 * same transaction, so a failed upload leaves the previous version whole. The same bytes sent again
 * keep their modification time (tap-files' bookmarks compare it): only their content type follows.
 */
export async function writeResource(db: Db, write: ResourceWrite, quotaBytes: number): Promise<WriteResult> {
  const { content } = write;
  // the demo's seed writes its files inside its own transaction
  const inTransaction = <T>(work: (trx: Db) => Promise<T>): Promise<T> => (db.isTransaction ? work(db) : db.transaction().execute(work));
  return inTransaction(async (trx) => {
    await trx.selectFrom('workspaces').select('id').where('id', '=', write.workspaceId).forUpdate().executeTakeFirst();
    const { used } = await trx
      .selectFrom('workspace_resources')
      .select(sql<number>`coalesce(sum(size), 0)::bigint`.as('used'))
      .where('workspace_id', '=', write.workspaceId)
      .where('path', '<>', write.path)
      .executeTakeFirstOrThrow();
    if (Number(used) + content.size > quotaBytes) return { ok: false, reason: 'QUOTA' } as const;
    const existed = await findResource(trx, write.workspaceId, write.path);
    if (existed?.digest === content.digest && existed.size === content.size) {
      const resource = await trx
        .updateTable('workspace_resources')
        .set({ content_type: write.contentType })
        .where('workspace_id', '=', write.workspaceId)
        .where('path', '=', write.path)
        .returning(META)
        .executeTakeFirstOrThrow();
      return { ok: true, created: false, resource } as const;
    }
    const meta = { content_type: write.contentType, size: content.size, digest: content.digest };
    const resource = await trx
      .insertInto('workspace_resources')
      .values({ workspace_id: write.workspaceId, path: write.path, created_by: write.profileId, ...meta })
      .onConflict((oc) => oc.columns(['workspace_id', 'path']).doUpdateSet({ ...meta, last_modified: sql`now()` }))
      .returning(META)
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('workspace_resource_chunks').where('workspace_id', '=', write.workspaceId).where('path', '=', write.path).execute();
    let seq = 0;
    let written = 0;
    for await (const bytes of content.chunks()) {
      await trx.insertInto('workspace_resource_chunks').values({ workspace_id: write.workspaceId, path: write.path, seq, bytes }).execute();
      seq += 1;
      written += bytes.length;
    }
    // what was announced is what was stored, or nothing is
    if (written !== content.size) throw new Error(`${write.path}: ${written} bytes were read of the ${content.size} announced`);
    return { ok: true, created: existed === undefined, resource } as const;
  });
}

export async function deleteResource(db: Db, workspaceId: string, path: string): Promise<boolean> {
  const result = await db.deleteFrom('workspace_resources').where('workspace_id', '=', workspaceId).where('path', '=', path).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
