import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../../tests/support/memoryDatabase';
import { findCaller, readWithCaller } from './callers';

const handle = useMemoryDatabase();
const owner = 'auth0|owner';
const other = 'auth0|other';
const keyClient = 'client-of-owner';
const workspaces = [randomUUID(), randomUUID(), randomUUID()];
beforeAll(async () => {
  const db = handle.db;
  await db.insertInto('profiles').values([
    { id: owner, name: 'Owner', email: 'o@example.com', can_create_workspaces: true },
    { id: other, name: 'Other', email: 'x@example.com', can_create_workspaces: false },
  ]).execute();
  await db.insertInto('workspaces').values(workspaces.map((id, i) => ({ id, name: `W${2 - i}`, status: 'READY', domains: JSON.stringify([]), app_properties: JSON.stringify({}) }))).execute();
  await db.insertInto('workspace_members').values(workspaces.map((id) => ({ workspace_id: id, profile_id: owner, role: 'owner' as const }))).execute();
  await db.insertInto('api_keys').values({ id: randomUUID(), profile_id: owner, name: 'k', client_id: keyClient, secret_hash: 'x' }).execute();
});

/** The caller's workspace names, a page at a time, ordered by name descending. */
const namesOf = readWithCaller(
  (db, p: { limit: number }, callerId) =>
    db.selectFrom('workspace_members as m').innerJoin('workspaces as w', 'w.id', 'm.workspace_id').select(['w.id', 'w.name']).where('m.profile_id', '=', callerId).orderBy('w.name', 'desc').limit(p.limit),
  sql`data.name DESC`,
);

describe('readWithCaller', () => {
  it("returns the caller and the caller's rows, in the read's order", async () => {
    const { caller, rows } = await namesOf(handle.db, { profileId: owner }, undefined, { limit: 2 });
    expect(caller?.profile).toMatchObject({ id: owner, name: 'Owner', can_create_workspaces: true });
    expect(caller?.workspace).toBeUndefined();
    expect(rows.map((r) => r.name)).toEqual(['W2', 'W1']);
  });

  it("brings the caller's columns on one row of the page only", async () => {
    const { rows } = await namesOf(handle.db, { profileId: owner }, workspaces[0], { limit: 3 });
    expect(rows).toHaveLength(3);
    expect(rows.filter((row) => (row as Record<string, unknown>).caller_once !== null)).toHaveLength(1);
    expect(rows.every((row) => !('caller_id' in row))).toBe(true);
  });

  it('reads for the profile an API key belongs to', async () => {
    const { caller, rows } = await namesOf(handle.db, { clientId: keyClient }, undefined, { limit: 10 });
    expect(caller?.profile.id).toBe(owner);
    expect(caller?.apiKeyId).toEqual(expect.any(String));
    expect(rows).toHaveLength(3);
  });

  it('gives a caller with no rows, and no caller (nor rows) for an unknown subject', async () => {
    expect(await namesOf(handle.db, { profileId: other }, undefined, { limit: 10 })).toMatchObject({ caller: { profile: { id: other } }, rows: [] });
    expect(await namesOf(handle.db, { profileId: 'auth0|nobody' }, undefined, { limit: 10 })).toEqual({ caller: undefined, rows: [] });
  });

  it("reads a named workspace and the caller's role there, like findCaller", async () => {
    const carried = await namesOf(handle.db, { profileId: other }, workspaces[0], { limit: 1 });
    expect(carried.caller?.workspace).toMatchObject({ row: { id: workspaces[0], name: 'W2' }, role: undefined });
    expect(carried.caller).toEqual(await findCaller(handle.db, { profileId: other }, workspaces[0]));
    expect((await namesOf(handle.db, { profileId: owner }, randomUUID(), { limit: 1 })).caller?.workspace).toEqual({ row: undefined, role: undefined });
  });

  it('binds hostile subjects as values: they find nobody and change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.constantFrom("' OR 1=1 --", `${owner}' --`, 'caller.caller_id')), fc.boolean(), async (subject, byKey) => {
        const key = byKey ? { clientId: subject } : { profileId: subject };
        const expected = subject === owner && !byKey ? 3 : subject === keyClient && byKey ? 3 : subject === other && !byKey ? 0 : undefined;
        const { caller, rows } = await namesOf(handle.db, key, undefined, { limit: 10 });
        expect(caller === undefined ? undefined : rows.length).toBe(expected);
      }),
      { numRuns: 60 },
    );
    expect(await handle.db.selectFrom('workspace_members').select('workspace_id').execute()).toHaveLength(3);
  });
});
