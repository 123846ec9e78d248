import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceKind } from '../../../server/policy/access';
import type { RegisteredRoute } from '../../../server/routes';
import { expectError, type Answer, type ApiClient } from '../helpers/http';
import { startWorld, type World } from '../helpers/world';
import { apiRoutes, fingerprint, prepare, SELF_URL, urlOf, type Callers, type Fixtures } from './fixtures';

// Generated from the registered routes: for every route and method, every kind of caller who must
// not reach the demo workspace's resource is refused with the right status and sees none of its
// data. A new route is covered without a new test.

let world: World;
let fixtures: Fixtures;
let callers: Callers;
let before: string;

beforeAll(async () => {
  world = await startWorld();
  ({ fixtures, callers } = await prepare(world));
  before = await fingerprint(world.server.db);
}, 120_000);
afterAll(() => world.close());

/** A resource's own view as JSON (a workspace resource answers its content unless JSON is asked for). */
async function linksSeenBy(token: string, url: string): Promise<Set<string>> {
  const response = await fetch(new URL(url, world.baseUrl), { headers: { authorization: `Bearer ${token}`, accept: 'application/hal+json' } });
  const body = (await response.json().catch(() => undefined)) as { _links?: object } | undefined;
  return new Set(Object.keys(body?._links ?? {}));
}

/**
 * How a route refuses. A create at an id the client chose ('create workspace', 'create apikey', 'create dataplugin')
 * treats an id the caller cannot see as a free one (docs/decisions.md, "Existence oracles (issue
 * 36)"): the draft is offered, so the empty body is a 400 that writes nothing.
 */
const refusals = (kind: ResourceKind): number[] => (kind === 'workspaceOrDraft' || kind === 'apikeyOrDraft' || kind === 'globalDataPluginOrDraft' ? [400, 403, 404] : [403, 404]);

/** A body that passes no validation: refusals must come before input is read. */
const call = (api: ApiClient, route: RegisteredRoute) =>
  api.call(route.method, urlOf(route, fixtures), ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined);

function label(route: RegisteredRoute): string {
  return `${route.method} ${route.url}`;
}

/** No id of the demo workspace's resources appears in an answer given to somebody outside it (beyond the echo of what they asked for). */
function expectNoneOfTheirs(answer: Answer, route: RegisteredRoute): void {
  const text = JSON.stringify(answer.body ?? '');
  const asked = urlOf(route, fixtures);
  for (const kind of ['workspace', 'job', 'dataset', 'channel', 'invitation', 'apikey', 'notification', 'pipeline', 'dataComponent', 'dataStore', 'globalDataPlugin', 'comment', 'subscription', 'alert'] as const) {
    if (asked.includes(fixtures[kind])) continue;
    expect(text.includes(fixtures[kind]), `${label(route)} leaked the ${kind} ${fixtures[kind]}`).toBe(false);
  }
}

describe('leak matrix: every route, every caller who must be refused', () => {
  it('answers 401 to no token, a forged token and an expired token', async () => {
    for (const route of apiRoutes(world)) {
      for (const [who, api] of [['no token', callers.noToken], ['forged', callers.forged], ['expired', callers.expired]] as const) {
        const answer = await call(api, route);
        expect(answer.status, `${label(route)} as ${who}`).toBe(401);
        expectError(answer, 401);
      }
    }
  });

  it("refuses another workspace's admin, by token and by API key, and shows them nothing of the workspace", async () => {
    for (const route of apiRoutes(world)) {
      const kind = route.meta?.guard.resource ?? 'root';
      for (const [who, api] of [['outsider', callers.outsider.api], ['outsider API key', callers.outsiderKey]] as const) {
        const answer = await call(api, route);
        const where = `${label(route)} as ${who}: ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 200)}`;
        expect(answer.status, where).toBeLessThan(500);
        // The caller's own root resources (their workspaces, keys, notifications) may answer; anything of A may not.
        if (kind !== 'root') expect(refusals(kind), where).toContain(answer.status);
        if (answer.status >= 400) expectError(answer, answer.status);
        expectNoneOfTheirs(answer, route);
      }
    }
  });

  it('refuses a plain member every route whose relation the member is not offered', async () => {
    const offered = new Map<ResourceKind, Set<string>>();
    for (const [kind, url] of Object.entries(SELF_URL) as [ResourceKind, (f: Fixtures) => string][]) {
      offered.set(kind, await linksSeenBy(callers.member.token, url(fixtures)));
    }
    let refused = 0;
    for (const route of apiRoutes(world)) {
      const guard = route.meta?.guard;
      if (!guard) continue;
      const rels = [guard.rel].flat();
      if (rels.some((rel) => offered.get(guard.resource)?.has(rel))) continue;
      const answer = await call(callers.member.api, route);
      expect(refusals(guard.resource), `${label(route)} as member: ${answer.status}`).toContain(answer.status);
      expectError(answer, answer.status);
      refused += 1;
    }
    // The member lacks at least the admin relations (jobs, update delete workspace, create invitation, keys of others).
    expect(refused).toBeGreaterThan(8);
  });

  it('wrote nothing while refusing', async () => {
    expect(await fingerprint(world.server.db)).toBe(before);
  });
});
