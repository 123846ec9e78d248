import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/database';
import { up } from '../../server/db/migrations/020_table_prefixes';
import { createDataComponent } from '../../server/repositories/dataComponents';
import { newId } from '../../server/repositories/ids';
import { createPipeline } from '../../server/repositories/pipelines';
import { createTestDatabase, type TestDatabase } from '../support/server';

// Migration 020 on a real database: the pipelines that existed before table prefixes keep writing
// the bare stream names, so nothing they loaded moves and no dataset reading it breaks.

let database: TestDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  handle = await openDatabase({ url: database.url, dataDir: database.dataDir });
});
afterAll(async () => {
  await handle?.close();
  await database?.dispose();
});

it("gives each existing pipeline's target-store and target-postgres loaders the empty prefix, and touches nothing else", async () => {
  const { db } = handle;
  const workspaceId = newId();
  await db.insertInto('workspaces').values({ id: workspaceId, name: 'Before prefixes', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
  for (const [name, pluginType, pluginName] of [
    ['tap-demo', 'EXTRACTOR', 'tap-demo'],
    ['target-store', 'LOADER', 'target-store'],
    ['warehouse', 'LOADER', 'target-postgres'],
    ['jsonl', 'LOADER', 'target-jsonl'],
  ] as const) {
    const created = await createDataComponent(db, workspaceId, { name, pluginType, pluginName, variant: pluginName === 'target-jsonl' ? 'andyh1203' : 'builtin' });
    expect(created.ok).toBe(true);
  }
  const pipeline = async (name: string, dataComponents: string[], properties: Record<string, unknown> = {}) => {
    const created = await createPipeline(db, workspaceId, { name, draft: false, dataComponents, properties });
    if (!created.ok) throw new Error(name);
    return created.pipeline.id;
  };
  const ids = {
    store: await pipeline('into the store', ['tap-demo', 'target-store'], { 'tap-demo.seed': 3 }),
    prefixed: await pipeline('already prefixed', ['tap-demo', 'target-store'], { 'target-store.table_prefix': 'mine_' }),
    both: await pipeline('two loaders', ['tap-demo', 'target-store', 'warehouse']),
    other: await pipeline('another loader', ['tap-demo', 'jsonl']),
    none: await pipeline('no loader', ['tap-demo']),
  };

  const unknownDb = db as unknown as Kysely<unknown>;
  await up(unknownDb);
  await up(unknownDb); // twice changes nothing more

  const properties = async (id: string) => (await db.selectFrom('pipelines').select('properties').where('id', '=', id).executeTakeFirstOrThrow()).properties;
  expect(await properties(ids.store)).toEqual({ 'tap-demo.seed': 3, 'target-store.table_prefix': '' });
  expect(await properties(ids.prefixed)).toEqual({ 'target-store.table_prefix': 'mine_' });
  expect(await properties(ids.both)).toEqual({ 'target-store.table_prefix': '', 'warehouse.table_prefix': '' });
  expect(await properties(ids.other)).toEqual({});
  expect(await properties(ids.none)).toEqual({});
});
