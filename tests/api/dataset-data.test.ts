import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { DEMO } from '../../server/seed';
import { expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

let world: World;
let withData: { id: string; raw_data: string | null; alias: string | null };
let without: { id: string };

beforeAll(async () => {
  world = await startWorld();
  await login(world.member);
  const db = world.server.db;
  withData = await db.selectFrom('datasets').select(['id', 'raw_data', 'alias']).where('workspace_id', '=', DEMO.workspaceId).where('raw_data', 'is not', null).executeTakeFirstOrThrow();
  without = { id: randomUUID() };
  await db.insertInto('datasets').values({ id: without.id, workspace_id: DEMO.workspaceId, title: 'Notes without data', description_content_type: 'text/markdown' }).execute();
});
afterAll(() => world?.close());

describe("GET a dataset's data link", () => {
  it('answers the rows as JSON to every member', async () => {
    const dataset = await world.member.api.get(`/api/datasets/${withData.id}`);
    const answer = await world.member.api.get(linkOf(dataset.body, REL.data));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(JSON.parse(withData.raw_data ?? '[]'));
  });

  it('answers CSV with Accept: text/csv, a header of the columns and one line per row', async () => {
    const response = await fetch(new URL(`/api/datasets/${withData.id}/data`, world.baseUrl), {
      headers: { authorization: `Bearer ${world.member.token}`, accept: 'text/csv' },
    });
    expect(response.headers.get('content-type')).toMatch(/text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/);
    const rows = JSON.parse(withData.raw_data ?? '[]') as Record<string, unknown>[];
    const lines = (await response.text()).split('\r\n').filter((line) => line !== '');
    expect(lines.length).toBe(rows.length + 1);
    expect(lines[0]).toBe(Object.keys(rows[0] ?? {}).join(','));
  });

  it('offers no data link on a dataset without data, and refuses the request (403)', async () => {
    const dataset = await world.member.api.get(`/api/datasets/${without.id}`);
    expect(hasLink(dataset.body, REL.data)).toBe(false);
    expectError(await world.member.api.get(`/api/datasets/${without.id}/data`), 403);
  });

  it('refuses a stranger (404, as for no such id) and no token (401)', async () => {
    expectError(await world.outsider.api.get(`/api/datasets/${withData.id}/data`), 404);
    expectError(await world.anonymous.get(`/api/datasets/${withData.id}/data`), 401);
  });
});
