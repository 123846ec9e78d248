import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import { createDataset, setLiked, updateDataset } from '../../server/repositories/datasetWrites';
import { startTestServer, type TestServer } from '../support/server';

// Migration 026: a dataset's body as every viewer sees it is stored on its row, written by
// triggers. Whatever the writes (stars, likers renamed or deleted, channels renamed or deleted,
// the dataset's own fields, comments, views, hostile text, concurrent transactions), the stored
// body must be what reading the tables and building the body from them gives.

let server: TestServer;
let db: Db;
const workspaceId = randomUUID();

beforeAll(async () => {
  server = await startTestServer();
  db = server.db;
  await db.insertInto('workspaces').values({ id: workspaceId, name: 'Bodies', status: 'READY', domains: JSON.stringify([]), app_properties: JSON.stringify({}) }).execute();
});
afterAll(() => server?.close());

async function newProfile(name = 'Liker'): Promise<string> {
  const id = `auth0|${randomUUID()}`;
  await db.insertInto('profiles').values({ id, name, email: `${randomUUID()}@example.com`, can_create_workspaces: false }).execute();
  return id;
}

async function newChannel(name = 'Channel'): Promise<string> {
  const id = randomUUID();
  await db.insertInto('channels').values({ id, workspace_id: workspaceId, name, type: 'SOURCE', scope: 'WORKSPACE' }).execute();
  return id;
}

/** The stored body, and the body built from the tables as the server built it before migration 026. */
async function storedAndBuilt(id: string) {
  const d = await db.selectFrom('datasets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const likers = await db
    .selectFrom('dataset_likes as l')
    .innerJoin('profiles as p', 'p.id', 'l.profile_id')
    .select(['p.id', 'p.name', 'p.email'])
    .where('l.dataset_id', '=', id)
    .orderBy('l.created')
    .orderBy('p.id')
    .execute();
  const channel = d.channel_id === null ? undefined : await db.selectFrom('channels').select(['id', 'name', 'description', 'picture']).where('id', '=', d.channel_id).executeTakeFirst();
  const built = {
    id: d.id,
    workspaceId: d.workspace_id,
    alias: d.alias,
    title: d.title,
    description: d.description,
    descriptionContentType: d.description_content_type,
    questions: d.questions,
    visualisation: d.visualisation,
    metadata: d.metadata,
    rawData: d.raw_data,
    query: d.query,
    viewCount: d.view_count,
    likeCount: likers.length,
    likedByProfiles: likers,
    commentCount: d.comment_count,
    continuousPoll: d.continuous_poll,
    published: d.published.toISOString(),
    created: d.created.toISOString(),
    lastModified: d.last_modified.toISOString(),
    ...(channel ? { _embedded: { source: channel } } : {}),
  };
  return { stored: { ...(JSON.parse(d.body_json) as object), likeCount: d.like_count }, built };
}

// Any text PostgreSQL stores (it refuses NUL): quotes, backslashes, control characters, any script.
const text = fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replaceAll('\u0000', ''));
const hostile = fc.oneof(text, fc.constantFrom('"', '\\', '\\"}', '</script>', '\n\t\r\b\f', '\u2028\u2029', '{"a":1}', '😀 é', "'; DROP TABLE datasets; --"));

describe("a dataset's stored body", () => {
  it('is the body the tables give, whatever the writes', async () => {
    type Op =
      | { kind: 'star' | 'unstar' | 'delete liker'; who: number }
      | { kind: 'rename liker'; who: number; name: string; email: boolean }
      | { kind: 'move'; to: number | null }
      | { kind: 'edit channel'; which: number; name: string; description: string | null; picture: string | null }
      | { kind: 'delete channel'; which: number }
      | { kind: 'edit'; title: string; description: string | null; rawData: string | null; query: string | null; alias: string | null }
      | { kind: 'comment' | 'view' };
    const who = fc.nat({ max: 2 });
    const which = fc.nat({ max: 1 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constantFrom('star' as const, 'unstar' as const, 'delete liker' as const), who }),
      fc.record({ kind: fc.constant('rename liker' as const), who, name: hostile, email: fc.boolean() }),
      fc.record({ kind: fc.constant('move' as const), to: fc.option(which, { nil: null }) }),
      fc.record({ kind: fc.constant('edit channel' as const), which, name: hostile, description: fc.option(hostile, { nil: null }), picture: fc.option(hostile, { nil: null }) }),
      fc.record({ kind: fc.constant('delete channel' as const), which }),
      fc.record({
        kind: fc.constant('edit' as const),
        title: hostile,
        description: fc.option(hostile, { nil: null }),
        rawData: fc.option(fc.oneof(hostile, fc.constantFrom('[]', ' \n[{"a":1}]', 'graph TD; A-->B')), { nil: null }),
        query: fc.option(hostile, { nil: null }),
        alias: fc.option(hostile, { nil: null }),
      }),
      fc.record({ kind: fc.constantFrom('comment' as const, 'view' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 10 }), async (ops) => {
        const profiles = [await newProfile(), await newProfile(), await newProfile()];
        const channels = [await newChannel(), await newChannel()];
        const id = randomUUID();
        await createDataset(db, id, workspaceId, { title: 'A dataset', channel_id: channels[0]! }, ['t']);
        for (const step of ops) {
          if (step.kind === 'star' || step.kind === 'unstar') await setLiked(db, id, profiles[step.who]!, step.kind === 'star');
          else if (step.kind === 'delete liker') {
            await db.deleteFrom('profiles').where('id', '=', profiles[step.who]!).execute();
            profiles[step.who] = await newProfile();
          } else if (step.kind === 'rename liker') {
            await db.updateTable('profiles').set(step.email ? { email: step.name } : { name: step.name }).where('id', '=', profiles[step.who]!).execute();
          } else if (step.kind === 'move') await updateDataset(db, id, { channel_id: step.to === null ? null : channels[step.to]! }, undefined);
          else if (step.kind === 'edit channel') {
            await db.updateTable('channels').set({ name: step.name, description: step.description, picture: step.picture }).where('id', '=', channels[step.which]!).execute();
          } else if (step.kind === 'delete channel') {
            await db.deleteFrom('channels').where('id', '=', channels[step.which]!).execute();
            channels[step.which] = await newChannel();
          } else if (step.kind === 'edit') {
            // an alias is unique in its workspace: this dataset's own
            const alias = step.alias === null ? null : `${step.alias}-${id}`;
            await updateDataset(db, id, { title: step.title, description: step.description, raw_data: step.rawData, query: step.query, alias }, undefined);
          } else if (step.kind === 'comment') {
            await db.insertInto('comments').values({ id: randomUUID(), dataset_id: id, parent_id: null, author_id: profiles[0]!, message: 'hello' }).execute();
          } else await db.updateTable('datasets').set((eb) => ({ view_count: eb('view_count', '+', 1) })).where('id', '=', id).execute();
          const { stored, built } = await storedAndBuilt(id);
          expect(stored).toEqual(built);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('says whether the raw data is rows: a JSON list after JSON whitespace', async () => {
    const cases: [string | null, boolean][] = [
      ['[1,2]', true],
      [' \n\t\r[{"a":1}]', true],
      ['graph TD; A-->B', false],
      ['{"rows":[]}', false],
      ['\u00a0[1]', false],
      [null, false],
    ];
    for (const [rawData, holdsRows] of cases) {
      const id = randomUUID();
      await createDataset(db, id, workspaceId, { title: 'Raw', raw_data: rawData }, undefined);
      const row = await db.selectFrom('datasets').select('holds_rows').where('id', '=', id).executeTakeFirstOrThrow();
      expect([rawData, row.holds_rows]).toEqual([rawData, holdsRows]);
    }
  });

  it('loses no star when many arrive together', async () => {
    const id = randomUUID();
    await createDataset(db, id, workspaceId, { title: 'Popular' }, undefined);
    const likers = await Promise.all(Array.from({ length: 12 }, () => newProfile()));
    // on PostgreSQL these run on separate connections, in overlapping transactions
    await Promise.all(likers.map((profileId) => db.transaction().execute((trx) => setLiked(trx, id, profileId, true))));
    const { stored, built } = await storedAndBuilt(id);
    expect(stored).toEqual(built);
    expect(stored.likeCount).toBe(12);
  });
});
