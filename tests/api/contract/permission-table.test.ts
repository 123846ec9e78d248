import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDbOf } from '../../../server/db/storeDatabase';
import type { ResourceKind } from '../../../server/policy/access';
import type { RegisteredRoute } from '../../../server/routes';
import { ensureStoreRole, storeSchemaName } from '../../../server/stores/storeRole';
import type { ApiClient } from '../helpers/http';
import { startWorld, type World } from '../helpers/world';
import { addEditor, apiRoutes, fingerprint, prepare, SELF_URL, urlOf, type Fixtures } from './fixtures';
import { offerOf, reviewedRels, ROLES, viewOf, type Role } from './permissionTable';

// The permission table (permissionTable.ts, written by hand) against the running server: (a) every
// kind's own view offers each role exactly the table's relations; (b) every route is followed both
// ways — a role the table offers its relation is not refused (reads only: a write allowed would
// change the fixtures, and its link being offered is what (a) checks), a role it does not is
// refused 403/404 and nothing is written. Unlike the leak matrix, no expectation comes from the policy.

let world: World;
let fixtures: Fixtures;
let as: Record<Role, { api: ApiClient; token: string }>;
/** Real values for the path parameters that name an item below the guarded resource (urlOf fills them with a profile id). */
let items: Record<string, string>;

beforeAll(async () => {
  world = await startWorld();
  const prepared = await prepare(world);
  fixtures = prepared.fixtures;
  const editor = await addEditor(world);
  as = { owner: world.owner, editor, member: prepared.callers.member, outsider: prepared.callers.outsider };
  // A table in the demo workspace's store, for the store browser's table and its lineage (no run loads one here).
  const schema = await ensureStoreRole(world.server.db, fixtures.workspace).then(() => storeSchemaName(fixtures.workspace));
  await sql`CREATE TABLE ${sql.id(schema, 'permission_table')} (id integer)`.execute(storeDbOf(world.server.db));
  const first = async (part: string, name: string, field: string) => {
    const answer = await world.owner.api.call('GET', `/api/workspaces/${fixtures.workspace}/${part}`);
    const list = answer.body?._embedded?.[name] ?? answer.body?.[name];
    const item = (list as Record<string, unknown>[] | undefined)?.[0];
    if (!item) throw new Error(`no ${name} in the demo workspace: ${answer.status}`);
    return String(item[field]);
  };
  items = { channelId: fixtures.channel, plural: 'extractors', plugin: 'tap-demo--builtin', tagId: await first('tags', 'tags', 'id'), table: await first('tables', 'tables', 'name') };
}, 120_000);
afterAll(() => world.close());

/** A draft kind's id may be free to the caller: creating at it with an empty body is a 400 that writes nothing (leak matrix). */
const refusals = (kind: ResourceKind): number[] => (kind.endsWith('OrDraft') ? [400, 403, 404] : [403, 404]);

/**
 * The route's URL on the fixtures, with the items below the guarded resource real (urlOf fills them
 * with a profile id), so an offered read can answer; a channel named under its workspace gets the
 * demo workspace too.
 */
function urlFor(route: RegisteredRoute): string {
  const url = route.url
    .replace(/^\/api\/workspaces\/:id\/channels\//, `/api/workspaces/${fixtures.workspace}/channels/`)
    .replace(/:(channelId|plural|plugin|tagId|table)\b/g, (_, name: string) => encodeURIComponent(items[name] ?? ''));
  return urlOf({ ...route, url }, fixtures);
}

const label = (route: RegisteredRoute) => `${route.method} ${route.url}`;

async function view(role: Role, url: string): Promise<{ status: number; rels: string[] }> {
  const response = await fetch(new URL(url, world.baseUrl), { headers: { authorization: `Bearer ${as[role].token}`, accept: 'application/hal+json' } });
  const body = (await response.json().catch(() => undefined)) as { _links?: object } | undefined;
  return { status: response.status, rels: Object.keys(body?._links ?? {}).sort() };
}

describe('the permission table', () => {
  it("offers each role exactly the table's relations on every kind's own view", async () => {
    const wrong: string[] = [];
    for (const [kind, url] of Object.entries(SELF_URL) as [ResourceKind, (f: Fixtures) => string][]) {
      for (const role of ROLES) {
        const want = viewOf(kind, role);
        const got = await view(role, url(fixtures));
        if (want === 'refused') {
          if (![403, 404].includes(got.status) || got.rels.length > 0) wrong.push(`${kind} as ${role}: expected refused, got ${got.status} [${got.rels.join(', ')}]`);
          continue;
        }
        const extra = got.rels.filter((rel) => !want.has(rel));
        const missing = [...want].filter((rel) => !got.rels.includes(rel));
        if (got.status !== 200 || extra.length > 0 || missing.length > 0) {
          wrong.push(`${kind} as ${role}: ${got.status}, offered but not in the table [${extra.join(', ')}], in the table but not offered [${missing.join(', ')}]`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has a reviewed entry for every relation a route is guarded by', () => {
    const unreviewed = apiRoutes(world).flatMap((route) => {
      const kind = route.meta?.guard.resource ?? 'root';
      const rels = [route.meta?.guard.rel ?? []].flat();
      return rels.filter((rel) => !reviewedRels(kind).has(rel)).map((rel) => `${label(route)} is guarded by (${kind}, '${rel}'): add it to permissionTable.ts`);
    });
    expect(unreviewed).toEqual([]);
  });

  it('follows every route both ways: offered reads answer, everything not offered is refused, and nothing is written', async () => {
    const before = await fingerprint(world.server.db);
    const wrong: string[] = [];
    let refused = 0;
    let read = 0;
    for (const route of apiRoutes(world)) {
      const kind = route.meta?.guard.resource ?? 'root';
      const rels = [route.meta?.guard.rel ?? []].flat();
      const write = route.method !== 'GET';
      for (const role of ROLES) {
        const offer = offerOf(kind, role);
        const offered = offer !== 'refused' && rels.some((rel) => offer.has(rel));
        // An allowed write would change (or destroy) the fixtures the rest of the table assumes.
        if (offered && write) continue;
        const answer = await as[role].api.call(route.method, urlFor(route), write ? {} : undefined);
        const where = `${label(route)} (${kind}, ${rels.join(' | ')}) as ${role}: ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 160)}`;
        if (offered) {
          read += 1;
          if ([401, 403, 404].includes(answer.status) || answer.status >= 500) wrong.push(`offered but refused: ${where}`);
        } else {
          refused += 1;
          if (!refusals(kind).includes(answer.status)) wrong.push(`not offered but answered: ${where}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // Most routes are refused to somebody, and every kind's reads are followed for somebody.
    expect(refused).toBeGreaterThan(200);
    expect(read).toBeGreaterThan(100);
    expect(await fingerprint(world.server.db)).toBe(before);
  });
});
