import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { findApiKeyClient } from './api-key-clients';

/**
 * oidc-provider's state (sessions, interactions, codes, grants, refresh tokens ...) in idp_payloads,
 * one row per (id, model): it survives restarts and every server process on the database sees it.
 * Expired rows are invisible at once and deleted later by `deleteExpiredPayloads`.
 * The 'Client' model is not stored here: clients other than the static SPA client are API keys,
 * read from the api_keys table.
 */
export function databaseAdapter(db: Db): AdapterFactory {
  return (model: string): Adapter => (model === 'Client' ? apiKeyClientAdapter(db) : payloadAdapter(db, model));
}

function payloadAdapter(db: Db, type: string): Adapter {
  const live = () =>
    db
      .selectFrom('idp_payloads')
      .select(['payload', 'consumed_at'])
      .where('type', '=', type)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]));

  const toPayload = (row: { payload: Record<string, unknown>; consumed_at: Date | null } | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : payload;
  };

  return {
    async upsert(id, payload, expiresIn) {
      const expiresAt = typeof expiresIn === 'number' ? sql<Date>`now() + make_interval(secs => ${expiresIn})` : null;
      const values = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresAt,
        consumed_at: null,
      };
      await db
        .insertInto('idp_payloads')
        .values({ id, type, ...values })
        .onConflict((oc) => oc.columns(['id', 'type']).doUpdateSet(values))
        .execute();
    },
    async find(id) {
      return toPayload(await live().where('id', '=', id).executeTakeFirst());
    },
    async findByUid(uid) {
      return toPayload(await live().where('uid', '=', uid).executeTakeFirst());
    },
    async findByUserCode(userCode) {
      return toPayload(await live().where('user_code', '=', userCode).executeTakeFirst());
    },
    async consume(id) {
      await db.updateTable('idp_payloads').set({ consumed_at: sql<Date>`now()` }).where('id', '=', id).where('type', '=', type).execute();
    },
    async destroy(id) {
      await db.deleteFrom('idp_payloads').where('id', '=', id).where('type', '=', type).execute();
    },
    async revokeByGrantId(grantId) {
      await db.deleteFrom('idp_payloads').where('grant_id', '=', grantId).where('type', '=', type).execute();
    },
  };
}

function apiKeyClientAdapter(db: Db): Adapter {
  const readOnly = () => Promise.reject(new Error('API-key clients are managed through the API, not the identity provider'));
  return {
    find: (clientId) => findApiKeyClient(db, clientId),
    upsert: readOnly,
    findByUid: () => Promise.resolve(undefined),
    findByUserCode: () => Promise.resolve(undefined),
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: () => Promise.resolve(undefined),
  };
}

export async function deleteExpiredPayloads(db: Db): Promise<void> {
  await db.deleteFrom('idp_payloads').where('expires_at', '<', sql<Date>`now()`).execute();
}

/** Ends every session and grant of one account (after a password reset): refresh tokens stop working. */
export async function revokeAccountState(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('idp_payloads').where(sql<string>`payload->>'accountId'`, '=', accountId).execute();
}
