import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import { createDataset, updateDataset } from '../../server/repositories/datasetWrites';
import { startTestServer, type TestServer } from '../support/server';

// Migration 025: a dataset's comment count and tags live on its row, kept by triggers. Whatever
// the writes (initialised comments, replies, edits, cascades, tag replacements, concurrent
// transactions), the row must say what counting the comments and gathering the tags would.

let server: TestServer;
let db: Db;
const author = `auth0|${randomUUID()}`;
const workspaceId = randomUUID();

beforeAll(async () => {
  server = await startTestServer();
  db = server.db;
  await db.insertInto('profiles').values({ id: author, name: 'Author', email: `${randomUUID()}@example.com`, can_create_workspaces: true }).execute();
  await db.insertInto('workspaces').values({ id: workspaceId, name: 'Counts', status: 'READY', domains: JSON.stringify([]), app_properties: JSON.stringify({}) }).execute();
});
afterAll(() => server?.close());

async function newDataset(tags: readonly string[] = []): Promise<string> {
  const id = randomUUID();
  await createDataset(db, id, workspaceId, { title: `Dataset ${id}` }, tags);
  return id;
}

/** What the row says, and what counting and gathering say. */
async function keptAndCounted(datasetId: string) {
  const { rows } = await sql<{ comment_count: number; tags: string[]; counted: number; gathered: string[] }>`
    SELECT d.comment_count, d.tags,
      (SELECT count(*)::int FROM comments c WHERE c.dataset_id = d.id AND c.message IS NOT NULL) AS counted,
      ARRAY(SELECT t.tag FROM dataset_tags t WHERE t.dataset_id = d.id ORDER BY t.tag) AS gathered
    FROM datasets d WHERE d.id = ${datasetId}`.execute(db);
  const row = rows[0]!;
  return { kept: { comments: row.comment_count, tags: row.tags }, counted: { comments: row.counted, tags: row.gathered } };
}

async function comment(datasetId: string, message: string | null, parentId: string | null = null): Promise<string> {
  const id = randomUUID();
  await db.insertInto('comments').values({ id, dataset_id: datasetId, parent_id: parentId, author_id: author, message }).execute();
  return id;
}

describe("a dataset's comment count and tags, kept on its row", () => {
  it('count comments once they have a message, replies included, and drop a deleted thread whole', async () => {
    const id = await newDataset();
    const initialised = await comment(id, null);
    expect((await keptAndCounted(id)).kept.comments).toBe(0);
    await db.updateTable('comments').set({ message: 'first' }).where('id', '=', initialised).execute();
    const reply = await comment(id, 'a reply', initialised);
    await comment(id, 'another reply', initialised);
    await db.updateTable('comments').set({ message: 'edited' }).where('id', '=', reply).execute();
    expect(await keptAndCounted(id)).toMatchObject({ kept: { comments: 3 }, counted: { comments: 3 } });
    // the thread's replies go with it (ON DELETE CASCADE), each one counted off
    await db.deleteFrom('comments').where('id', '=', initialised).execute();
    expect(await keptAndCounted(id)).toMatchObject({ kept: { comments: 0 }, counted: { comments: 0 } });
  });

  it('keep the tags sorted through creation and replacement', async () => {
    const id = await newDataset(['zeta', 'alpha', '#Mid']);
    expect((await keptAndCounted(id)).kept.tags).toEqual(['alpha', 'mid', 'zeta']);
    await updateDataset(db, id, {}, ['beta']);
    expect(await keptAndCounted(id)).toEqual({ kept: { comments: 0, tags: ['beta'] }, counted: { comments: 0, tags: ['beta'] } });
    await updateDataset(db, id, {}, []);
    expect((await keptAndCounted(id)).kept.tags).toEqual([]);
  });

  it('agree with counting after any sequence of comment and tag writes', async () => {
    type Op =
      | { kind: 'comment'; message: string | null; reply: boolean }
      | { kind: 'set message'; which: number; message: string | null }
      | { kind: 'delete comment'; which: number }
      | { kind: 'add tag'; tag: string }
      | { kind: 'remove tag'; tag: string }
      | { kind: 'rename tag'; tag: string; to: string };
    const tag = fc.constantFrom('a', 'b', 'c', 'd', 'É', 'z z');
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('comment' as const), message: fc.option(fc.string(), { nil: null }), reply: fc.boolean() }),
      fc.record({ kind: fc.constant('set message' as const), which: fc.nat(), message: fc.option(fc.string(), { nil: null }) }),
      fc.record({ kind: fc.constant('delete comment' as const), which: fc.nat() }),
      fc.record({ kind: fc.constant('add tag' as const), tag }),
      fc.record({ kind: fc.constant('remove tag' as const), tag }),
      fc.record({ kind: fc.constant('rename tag' as const), tag, to: tag }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const id = await newDataset();
        const comments: string[] = [];
        const pick = (which: number) => comments[which % comments.length];
        for (const step of ops) {
          if (step.kind === 'comment') comments.push(await comment(id, step.message, step.reply && comments.length > 0 ? pick(comments.length - 1)! : null));
          else if (step.kind === 'set message' && comments.length > 0) await db.updateTable('comments').set({ message: step.message }).where('id', '=', pick(step.which)!).execute();
          else if (step.kind === 'delete comment' && comments.length > 0) {
            await db.deleteFrom('comments').where('id', '=', pick(step.which)!).execute();
            // its replies went with it
            const left = await db.selectFrom('comments').select('id').where('dataset_id', '=', id).orderBy('id').execute();
            comments.splice(0, comments.length, ...left.map((c) => c.id));
          }
          else if (step.kind === 'add tag') await db.insertInto('dataset_tags').values({ dataset_id: id, tag: step.tag }).onConflict((oc) => oc.doNothing()).execute();
          else if (step.kind === 'remove tag') await db.deleteFrom('dataset_tags').where('dataset_id', '=', id).where('tag', '=', step.tag).execute();
          else if (step.kind === 'rename tag') {
            const clash = await db.selectFrom('dataset_tags').select('tag').where('dataset_id', '=', id).where('tag', '=', step.to).executeTakeFirst();
            if (!clash) await db.updateTable('dataset_tags').set({ tag: step.to }).where('dataset_id', '=', id).where('tag', '=', step.tag).execute();
          }
          const { kept, counted } = await keptAndCounted(id);
          expect(kept).toEqual(counted);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('lose no count and no tag when writes on one dataset arrive together', async () => {
    const id = await newDataset();
    // on PostgreSQL these run on separate connections, in overlapping transactions
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('comments').values({ id: randomUUID(), dataset_id: id, parent_id: null, author_id: author, message: `m${i}` }).execute();
          await trx.insertInto('dataset_tags').values({ dataset_id: id, tag: `t${String(i).padStart(2, '0')}` }).execute();
        }),
      ),
    );
    const { kept, counted } = await keptAndCounted(id);
    expect(kept).toEqual(counted);
    expect(kept.comments).toBe(12);
    expect(kept.tags).toHaveLength(12);
  });
});
