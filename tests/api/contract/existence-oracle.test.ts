import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceKind } from '../../../server/policy/access';
import type { RegisteredRoute } from '../../../server/routes';
import { DEMO } from '../../../server/seed';
import type { Answer, ApiClient } from '../helpers/http';
import { startWorld, type World } from '../helpers/world';
import { apiRoutes, prepare, urlOf, type Callers, type Fixtures } from './fixtures';

// Existence oracles (issue 36; docs/decisions.md): to a stranger — another workspace's admin, by
// token or API key — every route answers a real id of the demo workspace exactly as it answers an
// id that names nothing: the same status and the same body, but for the time, the path and the id
// itself. Generated from the registered routes, so a new route is covered without a new test.

let world: World;
let fixtures: Fixtures;
let callers: Callers;

beforeAll(async () => {
  world = await startWorld();
  ({ fixtures, callers } = await prepare(world));
}, 120_000);
afterAll(() => world.close());

/**
 * Routes that create a resource at an id the client chose: to a stranger a taken id is a free one,
 * offered the same draft, so they answer alike until the create itself (a 409 where a free id gets
 * 201; docs/decisions.md).
 */
const CREATES_AT_ITS_ID: readonly ResourceKind[] = ['workspaceOrDraft', 'apikeyOrDraft', 'globalDataPluginOrDraft'];

/** The body with what differs by request alone taken out: the time, the path, and the id asked for. */
function comparable(answer: Answer, id: string): string {
  const body = (typeof answer.body === 'object' && answer.body !== null ? { ...(answer.body as Record<string, unknown>) } : answer.body) as unknown;
  if (typeof body === 'object' && body !== null) {
    delete (body as Record<string, unknown>).timestamp;
    delete (body as Record<string, unknown>).path;
  }
  return `${answer.status} ${JSON.stringify(body ?? null).split(id).join('{id}')}`;
}

/** A body that passes no validation: the guard answers before any input is read. */
const call = (api: ApiClient, route: RegisteredRoute, url: string) => api.call(route.method, url, ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined);

describe('existence oracles: a stranger cannot tell a real id from a made-up one', () => {
  for (const [who, pick] of [
    ['another workspace’s admin', (c: Callers) => c.outsider.api],
    ['their API key', (c: Callers) => c.outsiderKey],
  ] as const) {
    it(`answers every route alike for a real and a made-up id (${who})`, async () => {
      const api = pick(callers);
      const kinds = new Set<ResourceKind>();
      for (const route of apiRoutes(world)) {
        const kind = route.meta?.guard.resource ?? 'root';
        if (kind === 'root') continue;
        const real = fixtures[kind];
        const madeUp = randomUUID();
        const realAnswer = await call(api, route, urlOf(route, fixtures));
        const madeUpAnswer = await call(api, route, urlOf(route, { ...fixtures, [kind]: madeUp }));
        const where = `${route.method} ${route.url}`;
        expect(comparable(madeUpAnswer, madeUp), where).toBe(comparable(realAnswer, real));
        // and the answer is the one a missing resource gets (someone else's profile is refused alike,
        // unread; a draft is refused or read as any free id's)
        if (!CREATES_AT_ITS_ID.includes(kind)) expect(realAnswer.status, `${where}: ${JSON.stringify(realAnswer.body)}`).toBe(kind === 'profile' ? 403 : 404);
        kinds.add(kind);
      }
      // every kind of resource a route names was compared
      expect([...kinds].sort()).toEqual(
        (Object.keys(fixtures) as Array<keyof Fixtures>).filter((k): k is ResourceKind => k !== 'root' && k !== 'datasetAlias' && k !== 'resourcePath').sort(),
      );
    });
  }

  it('refuses a stranger’s create at a taken id (409) and changes nothing there', async () => {
    const before = await world.owner.api.get(`/api/workspaces/${fixtures.workspace}`);
    const workspace = await callers.outsider.api.call('PUT', `/api/workspaces/${fixtures.workspace}`, { name: 'Taken over' });
    expect(workspace.status, JSON.stringify(workspace.body)).toBe(409);
    const key = await callers.outsider.api.call('PUT', `/api/apikeys/${fixtures.apikey}`, { name: 'Taken over' });
    expect(key.status, JSON.stringify(key.body)).toBe(409);
    const after = await world.owner.api.get(`/api/workspaces/${fixtures.workspace}`);
    expect(after.body.name).toBe(before.body.name);
    expect((await world.owner.api.get(`/api/apikeys/${fixtures.apikey}`)).body.name).toBe('leak matrix (owner)');
  });

  it('a member refused a relation on what they can see still gets 403', async () => {
    const answer = await callers.member.api.call('DELETE', `/api/workspaces/${DEMO.workspaceId}`);
    expect(answer.status).toBe(403);
  });

  it("publishes with another workspace's dataset id as with a made-up one", async () => {
    const elsewhere = await world.outsider.api.get('/api/workspaces');
    const own = (elsewhere.body._embedded?.workspaces as Array<{ id: string }> | undefined)?.[0]?.id;
    expect(own).toBeDefined();
    const publish = (id: string) => world.outsider.api.call('POST', `/api/workspaces/${own}/datasets`, { id, title: 'Squatter' });
    const taken = await publish(fixtures.dataset);
    const madeUp = randomUUID();
    const free = await publish(madeUp);
    expect(taken.status).toBe(400);
    expect(comparable(free, madeUp)).toBe(comparable(taken, fixtures.dataset));
    // an alias is the workspace's own: one taken elsewhere is simply free here
    const byAlias = await world.outsider.api.call('POST', `/api/workspaces/${own}/datasets`, { alias: fixtures.datasetAlias, title: 'Same alias, another workspace' });
    expect(byAlias.status).toBe(201);
  });
});
