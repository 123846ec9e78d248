import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../../server/routes';
import { GITHUB_WEBHOOK_PATH } from '../../../server/routes/githubWebhook';
import { startTestServer, type TestServer } from '../../support/server';

// Conformance with the Matatika API reference, counted: docs/decisions.md lists every endpoint of
// the reference (content/api and its request components, method and path as the reference writes
// them) as built or left, with why. Every endpoint it calls built must be routed here at that
// method and path, and the ones left are exactly those the document explains, so the count cannot
// drift from the server in either direction.

const DECISIONS = path.resolve(import.meta.dirname, '../../../docs/decisions.md');

interface Listed {
  method: string;
  /** the reference's path, `/api` first, without its query */
  path: string;
  built: boolean;
  line: string;
}

/** The lines of the conformance listing that name an endpoint: "- `METHOD /path` — built …" or "— left …". */
function listing(): Listed[] {
  const text = fs.readFileSync(DECISIONS, 'utf8');
  const start = text.indexOf('**Conformance with the Matatika API reference**');
  expect(start, 'the conformance listing in docs/decisions.md').toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start);
  return text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .flatMap((line) => {
      const match = /^- `(GET|POST|PUT|PATCH|DELETE) ([^`?\s]+)[^`]*`[^—]*— (built|left)/.exec(line);
      if (!match) return [];
      const [, method = '', raw = '', status] = match;
      return [{ method, path: raw.startsWith('/') ? raw : `/api/${raw}`, built: status === 'built', line }];
    });
}

/** A Fastify route's URL as a pattern over the reference's paths, whose `{parameters}` stand for one segment (or, at the end, for a resource path). */
function routed(routes: readonly RegisteredRoute[], endpoint: Listed): boolean {
  const segments = endpoint.path.replace(/\/$/, '').split('/');
  return routes.some((route) => {
    if (route.method !== endpoint.method) return false;
    const parts = route.url.replace(/\/$/, '').split('/');
    if (parts.at(-1) === '*') return segments.length >= parts.length && parts.slice(0, -1).every((part, i) => matches(part, segments[i] ?? ''));
    return parts.length === segments.length && parts.every((part, i) => matches(part, segments[i] ?? ''));
  });
}

const matches = (part: string, segment: string) => (part.startsWith(':') ? /^\{[^}]+\}$/.test(segment) : part === segment);

/** The endpoints left on purpose, each explained in the listing: none since issue 38 routed the last seven. */
const LEFT: string[] = [];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('conformance with the Matatika API reference', () => {
  it('routes every endpoint docs/decisions.md calls built, at the method and path the reference writes', () => {
    const endpoints = listing();
    // the reference documents well over a hundred requests; a listing that lost its lines would pass below
    expect(endpoints.length).toBeGreaterThan(120);
    // GitHub's signed webhook is the one route outside the bearer-token plugin (registered by app.ts)
    const webhook = `/api${GITHUB_WEBHOOK_PATH}`;
    expect(server.server.app.hasRoute({ method: 'POST', url: webhook })).toBe(true);
    const routes = [...server.server.routes, { method: 'POST', url: webhook, meta: undefined }];
    const missing = endpoints.filter((e) => e.built && !routed(routes, e)).map((e) => `${e.method} ${e.path}`);
    expect(missing, 'listed as built, but no route answers it').toEqual([]);
  });

  it('leaves only the endpoints the listing explains', () => {
    const left = listing().filter((e) => !e.built);
    expect(left.map((e) => `${e.method} ${e.path}`).sort()).toEqual([...LEFT].sort());
  });

  it("counts the reference's data plugins, create-or-update paths and revoke as routed (issue 38)", () => {
    const built = new Set(listing().filter((e) => e.built).map((e) => `${e.method} ${e.path}`));
    for (const endpoint of [
      'GET /api/dataplugins',
      'POST /api/dataplugins',
      'GET /api/dataplugins/{dataplugin-id}',
      'PUT /api/dataplugins/{dataplugin-id}',
      'DELETE /api/dataplugins/{dataplugin-id}',
      'PUT /api/workspaces/{workspace-id}/datacomponents/{datacomponent-id}',
      'PUT /api/workspaces/{workspace-id}/datastores/{datastore-id}',
      'PUT /api/invitations/{invitation-id}/revoked',
    ]) {
      expect(built.has(endpoint), endpoint).toBe(true);
    }
  });
});
