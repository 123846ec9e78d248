import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../server/seed';
import { REL } from '../../src/domain/relations';
import { linkOf } from './helpers/http';
import { startWorld, type World } from './helpers/world';

// Issue 19, deliverable 5: what plain HTTP clients meet. An empty body sent with a JSON content
// type is no body; a path served for other methods answers 405 with Allow (RFC 9110 §15.5.6);
// a URI template in a link says `templated: true`.

let world: World;
const W = DEMO.workspaceId;

beforeAll(async () => {
  world = await startWorld();
}, 120_000);
afterAll(() => world?.close());

const raw = (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${world.server.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${world.member.token}`, ...init.headers }, body: init.body ?? null });

async function likeHref(): Promise<string> {
  const { body } = await world.member.api.get(`/api/workspaces/${W}/datasets/top-customers`);
  return new URL(linkOf(body, REL.likeDataset)).pathname;
}

describe('a JSON content type with no body', () => {
  it('is a request without a body: PUT and DELETE on the like link work as without the header', async () => {
    const like = await likeHref();
    const likes = async () => ((await world.member.api.get(`/api/workspaces/${W}/datasets/top-customers`)).body as { likeCount: number }).likeCount;
    const before = await likes();
    const put = await raw('PUT', like, { headers: { 'content-type': 'application/json' } });
    expect(put.ok).toBe(true);
    expect(await likes()).toBe(before + 1);
    const del = await raw('DELETE', like, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(del.ok).toBe(true);
    expect(await likes()).toBe(before);
  });

  it('still refuses a body that is not JSON, with the error body', async () => {
    const res = await raw('PUT', await likeHref(), { body: '{"unterminated', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400 });
  });

  it('still refuses prototype poisoning', async () => {
    const res = await raw('PUT', await likeHref(), { body: '{"__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
  });
});

describe('a method the path is not served with', () => {
  it('is 405 with Allow naming the methods that are, and the error body', async () => {
    const like = await likeHref();
    const res = await raw('GET', like);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE, PUT');
    expect(await res.json()).toMatchObject({ status: 405, path: like });
  });

  it('lists HEAD beside GET, and answers the same without a token (the route table is public)', async () => {
    const res = await fetch(`${world.server.baseUrl}/api/workspaces/${W}`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')?.split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD']));
  });

  it('leaves a path no route serves a 404', async () => {
    const res = await raw('GET', '/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('allow')).toBeNull();
  });
});

describe('URI templates', () => {
  it("carry templated: true (a data component's 'authorize datacomponent'), and plain hrefs do not", async () => {
    const { body: workspace } = await world.owner.api.get(`/api/workspaces/${W}`);
    const created = await world.owner.api.call('POST', linkOf(workspace, REL.createDatacomponent), { dataPlugin: 'tap-files' });
    expect(created.status).toBe(201);
    const links = Object.entries((created.body as { _links: Record<string, { href: string; templated?: boolean }> })._links);
    expect(Object.fromEntries(links)[REL.authorizeDatacomponent]).toMatchObject({ href: expect.stringContaining('{provider}'), templated: true });
    for (const [rel, link] of links) expect(link.templated === true, rel).toBe(link.href.includes('{'));
  });
});
