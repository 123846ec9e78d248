import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { ApiKeysTable } from '../db/schema';
import type { Paging } from '../http/hal';

/** A stored key without its secret hash: nothing outside this module needs the hash. */
export type ApiKeyRow = Omit<Selectable<ApiKeysTable>, 'secret_hash'>;

const COLUMNS = ['id', 'profile_id', 'name', 'client_id', 'created'] as const;

export function findApiKey(db: Db, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function apiKeysOf(db: Db, profileId: string, paging: Paging): Promise<{ items: ApiKeyRow[]; total: number }> {
  const [items, count] = await Promise.all([
    db
      .selectFrom('api_keys')
      .select(COLUMNS)
      .where('profile_id', '=', profileId)
      .orderBy('created')
      .orderBy('id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('profile_id', '=', profileId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}

export function insertApiKey(
  db: Db,
  key: { id: string; profileId: string; name: string; clientId: string; secretHash: string },
): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({ id: key.id, profile_id: key.profileId, name: key.name, client_id: key.clientId, secret_hash: key.secretHash })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function renameApiKey(db: Db, id: string, name: string): Promise<ApiKeyRow> {
  return db.updateTable('api_keys').set({ name }).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow();
}

export async function deleteApiKey(db: Db, id: string): Promise<void> {
  await db.deleteFrom('api_keys').where('id', '=', id).execute();
}
