import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { workspaceResourceSchema, workspaceResourcesCollectionSchema } from '../../src/domain/resources';
import { RESOURCE_LIMITS } from '../../src/domain/workspaceResources';
import { bytesOf, RESOURCE_CHUNK_BYTES } from '../../server/repositories/workspaceResources';
import { deleteResource, findResource, writeResource } from '../../server/repositories/workspaceResources';
import { DEMO } from '../../server/seed';
import { embedded, expectError, hasLink, linkOf, type Answer } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';
import { outsiderWorkspace, type Body } from './lab/labWorld';

// Workspace resources (spec 002 'resources', DownloadResource; the reference's resources): every
// member lists and downloads, admins upload and delete; paths are hostile input; a download is an
// attachment with nosniff and an inert type, so an uploaded page never runs in our origin.

let world: World;
let ownerView: Body;
let memberView: Body;
let outsiderWorkspaceId: string;
const base = () => `${world.baseUrl}/api/workspaces/${DEMO.workspaceId}/resources`;
/** RESOURCE_MAX_MB for this world: small enough to pass, and several chunks big */
const MAX_MB = 3;
const MAX_BYTES = MAX_MB * 1024 * 1024;

beforeAll(async () => {
  world = await startWorld({ env: { RESOURCE_MAX_MB: String(MAX_MB) } });
  await Promise.all([login(world.owner), login(world.member)]);
  outsiderWorkspaceId = await outsiderWorkspace(world);
  ownerView = (await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body as Body;
  memberView = (await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body as Body;
});
afterAll(() => world?.close());

/** PUT raw bytes with a content type, as `curl -T` would. */
async function upload(person: Person | undefined, url: string, body: string | Uint8Array<ArrayBuffer>, type = 'application/octet-stream'): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': type };
  if (person) headers.authorization = `Bearer ${person.token}`;
  const response = await fetch(url, { method: 'PUT', headers, body });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

/** A PUT of `body` sent chunked, with no Content-Length: the server learns its size only by reading it. */
function putStreamed(url: string, body: Uint8Array): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', headers: { authorization: `Bearer ${world.owner.token}`, 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
    });
    request.on('error', reject);
    for (let at = 0; at < body.length; at += 64 * 1024) request.write(body.subarray(at, at + 64 * 1024));
    request.end();
  });
}

/** A PUT whose path goes out exactly as written (no dot-segment resolution, unlike fetch). */
function rawPut(path: string, token: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(world.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method: 'PUT', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    request.on('error', reject);
    request.end('x');
  });
}

async function download(person: Person | undefined, url: string, accept = '*/*'): Promise<Response> {
  const headers: Record<string, string> = { accept };
  if (person) headers.authorization = `Bearer ${person.token}`;
  return fetch(url, { headers });
}

describe("the 'resources' link", () => {
  it('is offered to every member; creating, replacing and deleting to admins only', async () => {
    expect(linkOf(ownerView, REL.resources)).toBe(base());
    expect(linkOf(memberView, REL.resources)).toBe(base());
    const created = await upload(world.owner, `${base()}/links/one.csv`, 'a\n1\n', 'text/csv');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(Object.keys(created.body._links)).toEqual([REL.self, REL.updateResource, REL.deleteResource]);
    const asMember = await world.member.api.get(`${base()}?size=100`);
    const mine = embedded(asMember.body, 'resources').find((r: Body) => r.path === 'links/one.csv') as Body;
    expect(Object.keys(mine._links)).toEqual([REL.self]);
    const asOwner = await world.owner.api.get(`${base()}?size=100`);
    expect(Object.keys((embedded(asOwner.body, 'resources').find((r: Body) => r.path === 'links/one.csv') as Body)._links)).toEqual([REL.self, REL.updateResource, REL.deleteResource]);
    // The refused side of each admin link.
    expectError(await upload(world.member, `${base()}/links/one.csv`, 'x'), 403);
    expectError(await upload(world.member, `${base()}/links/new.csv`, 'x'), 403);
    expectError(await world.member.api.call('DELETE', `${base()}/links/one.csv`), 403);
    expect((await download(world.member, `${base()}/links/one.csv`)).status).toBe(200);
  });
});

describe('upload, list and download', () => {
  it('creates (201) then replaces (200) a resource, lists it as a HAL page and downloads its bytes', async () => {
    const url = `${base()}/reports/2026/q1.csv`;
    const first = await upload(world.owner, url, 'region,total\nnorth,1\n', 'text/csv; charset=utf-8');
    expect(first.status).toBe(201);
    const resource = workspaceResourceSchema.parse(first.body);
    expect(resource).toMatchObject({ path: 'reports/2026/q1.csv', contentType: 'text/csv', size: 21 });
    expect(linkOf(first.body, REL.self)).toBe(url);
    const second = await upload(world.owner, linkOf(first.body, REL.updateResource), 'region,total\nsouth,2\n', 'text/csv');
    expect(second.status).toBe(200);
    expect(second.body.created).toBe(first.body.created);

    const list = await world.member.api.get(`${linkOf(memberView, REL.resources)}?sort=path,asc`);
    const page = workspaceResourcesCollectionSchema.parse(list.body);
    expect(page.page?.totalElements).toBeGreaterThanOrEqual(1);
    expect(embedded(list.body, 'resources').map((r: Body) => String(r.path))).toContain('reports/2026/q1.csv');

    const got = await download(world.member, url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('region,total\nsouth,2\n');
    expect(got.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="q1.csv"; filename*=UTF-8''q1.csv`);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');

    // With Accept: application/json, the Resource itself (the reference's "view a resource").
    const json = await download(world.member, url, 'application/hal+json');
    expect(workspaceResourceSchema.parse(await json.json())).toMatchObject({ path: 'reports/2026/q1.csv', size: 21 });
  });

  it("takes the reference's JSON Resource body and binary bytes alike", async () => {
    const json = await world.owner.api.call('PUT', `${base()}/notes.md`, { content: '# Notes\n', contentType: 'text/markdown' });
    expect(json.status).toBe(201);
    expect(json.body.contentType).toBe('text/markdown');
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128]);
    expect((await upload(world.owner, `${base()}/logo.png`, bytes, 'image/png')).status).toBe(201);
    const got = await download(world.owner, `${base()}/logo.png`);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);
    expect(got.headers.get('content-type')).toBe('image/png');
  });

  it('deletes through the link (204), after which the path is not found', async () => {
    const created = await upload(world.owner, `${base()}/to-delete.txt`, 'bye');
    const deleted = await world.owner.api.call('DELETE', linkOf(created.body, REL.deleteResource));
    expect(deleted.status).toBe(204);
    expectError(await world.owner.api.get(`${base()}/to-delete.txt`), 404);
    expectError(await world.owner.api.call('DELETE', `${base()}/to-delete.txt`), 404);
  });
});

describe('attacks', () => {
  it('downloads an uploaded HTML page with a script as an attachment, nosniff and octet-stream — never as HTML', async () => {
    const page = '<!doctype html><html><body><script>fetch("/api/").then(r=>r.text()).then(alert)</script></body></html>';
    for (const [path, declared] of [['evil.html', 'text/html'], ['evil.svg', 'image/svg+xml'], ['innocent.txt', 'text/html'], ['sniff-me.csv', 'text/plain']] as const) {
      const body = path.endsWith('.svg') ? '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' : page;
      expect((await upload(world.owner, `${base()}/${path}`, body, declared)).status).toBe(201);
      const got = await download(world.member, `${base()}/${path}`, 'text/html,application/xhtml+xml,*/*;q=0.8');
      expect(got.status).toBe(200);
      expect(got.headers.get('content-disposition')).toMatch(/^attachment; /);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-type')).not.toMatch(/html|svg|xml/);
      expect(got.headers.get('content-security-policy')).toContain('sandbox');
      expect(await got.text()).toBe(body);
    }
  });

  it('refuses path traversal, control characters, reserved characters and huge names with a field error on path', async () => {
    const hostile = [
      '..%2F..%2Fetc%2Fpasswd',
      'a/..%2F..%2Fsecret',
      'a//b.csv',
      'a%0Ab.csv',
      'a%0D%0AX-Injected:%201',
      'name%00.csv',
      'invoice%E2%80%AEfdp.exe',
      'a%5Cb',
      'a%22b.csv',
      `${'x'.repeat(RESOURCE_LIMITS.pathLength + 1)}`,
      `${'d/'.repeat(RESOURCE_LIMITS.segments)}f`,
    ];
    for (const path of hostile) {
      const answer = await upload(world.owner, `${base()}/${path}`, 'x');
      expectError(answer, 400, { path: /./ });
      expect(answer.body.errors[0].objectName).toBe('resource');
    }
    // fetch resolves dot segments itself; sent as they are, the server refuses them too.
    for (const raw of ['a/../../x', '../secret', '%2E%2E/x', './a', 'a/./b']) {
      const answer = await rawPut(`/api/workspaces/${DEMO.workspaceId}/resources/${raw}`, world.owner.token);
      expect(answer.status, raw).toBe(400);
      expect(answer.body).toMatchObject({ errors: [{ field: 'path', objectName: 'resource' }] });
    }
    const names = embedded((await world.owner.api.get(`${base()}?size=1000`)).body, 'resources').map((r: Body) => String(r.path));
    expect(names.filter((n) => n.includes('..') || /[\u0000-\u001f]/.test(n))).toEqual([]);
  });

  it('keeps a Unicode name exact and its header safe', async () => {
    const created = await upload(world.owner, `${base()}/${encodeURIComponent('Données "été".csv')}`, 'x');
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    const ok = await upload(world.owner, `${base()}/${encodeURIComponent('Données été (1).csv')}`, 'x');
    expect(ok.status).toBe(201);
    expect(ok.body.path).toBe('Données été (1).csv');
    const got = await download(world.owner, linkOf(ok.body, REL.self));
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="Donn_es _t_ (1).csv"; filename*=UTF-8''Donn%C3%A9es%20%C3%A9t%C3%A9%20%281%29.csv`);
  });

  it('stores a file of several chunks byte for byte, and a file at the limit; one byte more is a 413 naming the setting, whether announced or streamed, and keeps the old version', async () => {
    // bytes that differ in every chunk, so a chunk out of order or repeated shows
    const atLimit = new Uint8Array(MAX_BYTES);
    for (let i = 0; i < atLimit.length; i += 1) atLimit[i] = (i * 7 + Math.floor(i / RESOURCE_CHUNK_BYTES)) & 255;
    const stored = await upload(world.owner, `${base()}/chunks/at-limit.bin`, atLimit);
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    expect(stored.body.size).toBe(MAX_BYTES);
    const got = await download(world.owner, linkOf(stored.body, REL.self));
    expect(got.headers.get('content-length')).toBe(String(MAX_BYTES));
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(atLimit))).toBe(true);

    const over = new Uint8Array(MAX_BYTES + 1);
    const announced = await upload(world.owner, `${base()}/chunks/at-limit.bin`, over);
    expectError(announced, 413);
    expect(announced.body.message).toBe(`A file may be at most ${MAX_MB} MB (RESOURCE_MAX_MB)`);
    // without a length, the server counts as it reads and stops at the limit
    const streamed = await putStreamed(`${base()}/chunks/at-limit.bin`, over);
    expect(streamed.status).toBe(413);
    const after = await download(world.owner, linkOf(stored.body, REL.self));
    expect(Buffer.from(await after.arrayBuffer()).equals(Buffer.from(atLimit))).toBe(true);
    expect(fs.readdirSync(path.join(world.server.config.dataDir, 'uploads'))).toEqual([]);
  });

  it('a bad JSON body is a 400 with field errors', async () => {
    expectError(await world.owner.api.call('PUT', `${base()}/bad.txt`, { contentType: 'text/plain' }), 400, { content: 'is required' });
    expectError(await world.owner.api.call('PUT', `${base()}/bad.txt`, { content: 42 }), 400, { content: /./ });
    expectError(await world.owner.api.call('PUT', `${base()}/bad.txt`, '{"content": '), 400);
    expectError(await world.owner.api.get(`${base()}?sort=content,asc`), 400, { sort: /cannot sort/ });
    expectError(await world.owner.api.get(`${base()}/never-uploaded.csv`), 404);
    const form = new FormData();
    form.set('file', new Blob(['a,b\n']), 'a.csv');
    const multipart = await fetch(`${base()}/form.csv`, { method: 'PUT', headers: { authorization: `Bearer ${world.owner.token}` }, body: form });
    expectError({ status: multipart.status, body: await multipart.json(), headers: multipart.headers }, 400, { content: /multipart/ });
  });

  it("keeps a workspace's resources under their quota: a write that would pass it changes nothing", async () => {
    const db = world.server.db;
    const write = (path: string, bytes: number) => writeResource(db, { workspaceId: outsiderWorkspaceId, path, content: bytesOf(Buffer.alloc(bytes, bytes)), contentType: 'application/octet-stream', profileId: null }, 10);
    expect(await write('quota/a.bin', 6)).toMatchObject({ ok: true, created: true });
    expect(await write('quota/b.bin', 5)).toEqual({ ok: false, reason: 'QUOTA' });
    // Replacing a file counts its new size, not both.
    expect(await write('quota/a.bin', 10)).toMatchObject({ ok: true, created: false });
    expect((await findResource(db, outsiderWorkspaceId, 'quota/a.bin'))?.size).toBe(10);
    expect(await findResource(db, outsiderWorkspaceId, 'quota/b.bin')).toBeUndefined();
    await deleteResource(db, outsiderWorkspaceId, 'quota/a.bin');
  });

  it("refuses another workspace's admin and no token on every route, and keeps workspaces apart", async () => {
    await upload(world.owner, `${base()}/private.csv`, 'secret');
    const outsider = world.outsider;
    expectError(await outsider.api.get(base()), 404);
    expectError(await download(outsider, `${base()}/private.csv`).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers })), 404);
    expectError(await upload(outsider, `${base()}/private.csv`, 'overwritten'), 404);
    expectError(await outsider.api.call('DELETE', `${base()}/private.csv`), 404);
    expectError(await world.anonymous.get(base()), 401);
    expectError(await upload(undefined, `${base()}/private.csv`, 'overwritten'), 401);
    expect(await (await download(world.owner, `${base()}/private.csv`)).text()).toBe('secret');
    // The outsider's own workspace has its own resources: the same path there is another file.
    const theirs = `${world.baseUrl}/api/workspaces/${outsiderWorkspaceId}/resources/private.csv`;
    expect((await upload(outsider, theirs, 'mine')).status).toBe(201);
    expect(await (await download(outsider, theirs)).text()).toBe('mine');
    expect(await (await download(world.owner, `${base()}/private.csv`)).text()).toBe('secret');
    expect(hasLink((await outsider.api.get(`/api/workspaces/${outsiderWorkspaceId}`)).body, REL.resources)).toBe(true);
  });
});
