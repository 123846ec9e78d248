import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { RegisteredRoute } from '../../../server/routes';
import { expectError, type Answer } from '../helpers/http';
import { startWorld, type World } from '../helpers/world';
import { apiRoutes, fingerprint, prepare, urlOf, type Fixtures } from './fixtures';

// Generated from the registered routes and the zod schemas they declare: every route that reads a
// body, a query or a path parameter is sent what a hostile or broken client would send. No answer
// is a 5xx; every refusal is a 4xx in the spec's error body and writes nothing.

let world: World;
let fixtures: Fixtures;

beforeAll(async () => {
  world = await startWorld();
  ({ fixtures } = await prepare(world));
}, 120_000);
afterAll(() => world.close());

const MALFORMED_JSON = ['{', '{"name": ', '[1,', 'nul', '{"a":1}}', '\u0000', '{"name":"\\ud800"', "{'name':'x'}"];
const NOT_AN_OBJECT: unknown[] = [null, [], [{}], 42, 'text', true];
const WRONG_TYPES: unknown[] = [42, true, [], [1, 2], { nested: { deeper: 1 } }];
/** Content that is well-formed but hostile: it may be accepted, and then must be kept as text. */
const HOSTILE_TEXT = [
  "'; DROP TABLE workspaces; --",
  '<img src=x onerror=alert(1)><script>alert(1)</script>',
  '\u0000\u0007\u001b[31m\u202e\ufeff',
  '%s%n%x{{7*7}}${7*7}',
  '\ud800 lone surrogate',
  'x'.repeat(200_000),
];
const POLLUTION = ['{"__proto__": {"polluted": "yes"}}', '{"constructor": {"prototype": {"polluted": "yes"}}}'];
const QUERY_VALUES = ['abc', '-1', '1e309', '99999999999999999999', '%00', "' OR 1=1 --", '<x>', 'x'.repeat(10_000), '%E0%A4%A'];
const PATH_VALUES = ['%00', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(400), "'%20OR%20'1'='1", '%F0%9F%92%A9', '-1', '0'];

function shapeKeys(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

const hasBody = (route: RegisteredRoute) => route.meta?.body !== undefined;

function queryKeys(route: RegisteredRoute): string[] {
  return [...shapeKeys(route.meta?.query), ...(route.meta?.paging ? ['page', 'size', 'sort'] : [])];
}

interface Probe {
  route: RegisteredRoute;
  what: string;
  url: string;
  body?: string;
  /** a structural error: the answer must be a refusal */
  mustRefuse: boolean;
}

async function send(probe: Probe): Promise<Answer> {
  const response = await world.owner.api.raw(probe.route.method, probe.url, probe.body);
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body, headers: response.headers };
}

/**
 * The database's fingerprint after the last refused probe: a refusal wrote nothing, so it is the
 * next probe's "before" as well (half the fingerprints, which read every table). An accepted probe
 * may write: after it the next probe takes a fresh one.
 */
let unchangedSince: string | undefined;

async function expectSafe(probe: Probe): Promise<void> {
  const before = unchangedSince ?? (await fingerprint(world.server.db));
  unchangedSince = undefined;
  const answer = await send(probe);
  const where = `${probe.route.method} ${probe.route.url} with ${probe.what}: ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  if (probe.mustRefuse) expect(answer.status, where).toBeGreaterThanOrEqual(400);
  if (answer.status >= 400) {
    expectError(answer, answer.status);
    const after = await fingerprint(world.server.db);
    expect(after, `${where} wrote something while refusing`).toBe(before);
    unchangedSince = after;
  }
}

function bodyProbes(route: RegisteredRoute): Probe[] {
  const url = urlOf(route, fixtures);
  const probes: Probe[] = [
    ...MALFORMED_JSON.map((body) => ({ route, url, body, what: `malformed JSON ${JSON.stringify(body)}`, mustRefuse: true })),
    ...NOT_AN_OBJECT.map((value) => ({ route, url, body: JSON.stringify(value), what: `a body of ${JSON.stringify(value)}`, mustRefuse: true })),
    ...POLLUTION.map((body) => ({ route, url, body, what: body, mustRefuse: false })),
    { route, url, body: JSON.stringify({ name: 'x'.repeat(1_100_000) }), what: 'a body over 1 MB', mustRefuse: true },
  ];
  for (const field of shapeKeys(route.meta?.body)) {
    // A value is a wrong type unless the field's own schema takes it (an empty list for a list field).
    const fieldSchema = (route.meta?.body as { shape?: Record<string, z.ZodType> } | undefined)?.shape?.[field];
    for (const value of WRONG_TYPES) {
      probes.push({ route, url, body: JSON.stringify({ [field]: value }), what: `${field}=${JSON.stringify(value)}`, mustRefuse: fieldSchema?.safeParse(value).success !== true });
    }
    for (const text of HOSTILE_TEXT) probes.push({ route, url, body: JSON.stringify({ [field]: text }), what: `${field}=${JSON.stringify(text.slice(0, 40))}`, mustRefuse: false });
    probes.push({ route, url, body: `{"${field}": {"__proto__": {"polluted": "yes"}}}`, what: `${field} with __proto__`, mustRefuse: true });
  }
  return probes;
}

function queryProbes(route: RegisteredRoute): Probe[] {
  const base = urlOf(route, fixtures);
  const probes: Probe[] = [];
  for (const key of queryKeys(route)) {
    for (const value of QUERY_VALUES) probes.push({ route, url: `${base}?${key}=${value}`, what: `?${key}=${value.slice(0, 40)}`, mustRefuse: false });
    probes.push({ route, url: `${base}?${key}=1&${key}=2`, what: `?${key} twice`, mustRefuse: false });
  }
  return probes;
}

function pathProbes(route: RegisteredRoute): Probe[] {
  if (!/[:*]/.test(route.url)) return [];
  return PATH_VALUES.map((value) => ({
    route,
    url: urlOf(route, fixtures, value),
    what: `path parameter ${value.slice(0, 40)}`,
    // A malformed id names nothing: 4xx (404, or 403 where naming is the caller's own business).
    mustRefuse: true,
    ...(hasBody(route) ? { body: '{}' } : {}),
  }));
}

// Every route adds probes, each followed by a fingerprint of the whole database: the probing tests
// get minutes, not the API project's 30 s (a timed-out test would go on writing under the next one).
const PROBING_TIMEOUT_MS = 600_000;

describe('hostile input: every route that reads a body, a query or a path', () => {
  it('finds routes of each kind to probe', () => {
    const routes = apiRoutes(world);
    expect(routes.filter(hasBody).length).toBeGreaterThan(4);
    expect(routes.filter((r) => queryKeys(r).length > 0).length).toBeGreaterThan(8);
  });

  it('answers hostile bodies with 4xx and the error body, never a 5xx', async () => {
    for (const route of apiRoutes(world).filter(hasBody)) {
      for (const probe of bodyProbes(route)) await expectSafe(probe);
    }
  }, PROBING_TIMEOUT_MS);

  it('answers hostile query parameters without a 5xx', async () => {
    for (const route of apiRoutes(world).filter((r) => r.method === 'GET')) {
      for (const probe of queryProbes(route)) await expectSafe(probe);
    }
  }, PROBING_TIMEOUT_MS);

  it('answers hostile path parameters with a 4xx', async () => {
    for (const route of apiRoutes(world).filter((r) => r.method !== 'POST' || r.url.includes(':'))) {
      // The caller's own login path names the caller: any other value is refused, the right one is not hostile.
      for (const probe of pathProbes(route)) await expectSafe(probe);
    }
  }, PROBING_TIMEOUT_MS);

  it('left no prototype polluted', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
