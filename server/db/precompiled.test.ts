import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useMemoryDatabase } from '../../tests/support/memoryDatabase';
import { precompiled } from './precompiled';

const handle = useMemoryDatabase();

describe('precompiled queries', () => {
  const profileByEmail = precompiled((db, p: { email: string; limit: number }) =>
    db.selectFrom('profiles').select(['id', 'email']).where('email', '=', p.email).orderBy('id').limit(p.limit),
  );

  it('binds each call its own arguments, hostile text included, as values and never as SQL', async () => {
    await handle.db.insertInto('profiles').values({ id: 'p-1', name: 'One', email: "o'ne@example.com", can_create_workspaces: true }).execute();
    expect(await profileByEmail(handle.db, { email: "o'ne@example.com", limit: 5 })).toEqual([{ id: 'p-1', email: "o'ne@example.com" }]);
    await fc.assert(
      fc.asyncProperty(fc.string(), async (email) => {
        expect(await profileByEmail(handle.db, { email, limit: 1 })).toEqual(email === "o'ne@example.com" ? [{ id: 'p-1', email }] : []);
      }),
      { numRuns: 50 },
    );
    expect(await handle.db.selectFrom('profiles').select('id').execute()).toEqual([{ id: 'p-1' }]);
  });

  it('keeps constants the builder parameterised, and runs inside a transaction', async () => {
    const tagged = precompiled((db, p: { id: string }) => db.selectFrom('profiles').select([sql<string>`${'constant'}::text`.as('tag'), 'id']).where('id', '=', p.id));
    await handle.db.transaction().execute(async (trx) => {
      expect(await tagged(trx, { id: 'p-1' })).toEqual([{ tag: 'constant', id: 'p-1' }]);
    });
  });

  it('refuses a query that computed with a stand-in instead of placing it', async () => {
    const computed = precompiled((db, p: { page: number; size: number }) => db.selectFrom('profiles').select('id').offset(p.page * p.size));
    await expect(computed(handle.db, { page: 1, size: 2 })).rejects.toThrow(/computed with/);
  });
});
