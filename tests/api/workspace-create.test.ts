import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { jobSchema, workspaceSchema } from '../../src/domain/resources';
import { DEMO } from '../../server/seed';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

// Workspaces of one's own (issue 10): initialise (POST), create (PUT 'create workspace'), the
// repository fields, the deployment secret, the logo rule, and 'create deployment'. The runner
// is not started in API tests: the jobs they queue are checked here, run in tests/runner.

let world: World;
// Local repositories may come from `roots` only (REPOSITORY_LOCAL_ROOTS); `dataDir` is the server's data directory.
let dataDir: string;
let roots: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-data-'));
  roots = fs.mkdtempSync(path.join(os.tmpdir(), 'api-repositories-'));
  fs.mkdirSync(path.join(roots, 'data'));
  fs.symlinkSync('/etc', path.join(roots, 'etc-link'));
  fs.symlinkSync(dataDir, path.join(roots, 'data-link'));
  world = await startWorld({ env: { DATA_DIR: dataDir, REPOSITORY_LOCAL_ROOTS: `/srv/git,${roots}` } });
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
});
afterAll(async () => {
  await world?.close();
  for (const dir of [dataDir, roots]) fs.rmSync(dir, { recursive: true, force: true });
});

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SVG_WITH_SCRIPT = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>').toString('base64')}`;
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely
async function initialise(): Promise<any> {
  const root = await world.owner.api.get('/api/');
  const answer = await world.owner.api.call('POST', linkOf(root.body, REL.newWorkspace));
  expect(answer.status).toBe(201);
  return answer.body;
}

describe('POST /workspaces (initialise) and PUT its create workspace link', () => {
  it("offers 'new workspace' to owners only, on the root and the profile", async () => {
    const [owner, member] = await Promise.all([world.owner.api.get('/api/'), world.member.api.get('/api/')]);
    expect(hasLink(owner.body, REL.newWorkspace)).toBe(true);
    expect(hasLink(member.body, REL.newWorkspace)).toBe(false);
    expectError(await world.member.api.call('POST', '/api/workspaces'), 403);
    expectError(await world.anonymous.call('POST', '/api/workspaces'), 401);
  });

  it('initialises an id with a create link, stores nothing, then creates a PROVISIONING workspace with a WORKSPACE_INIT job (201)', async () => {
    const draft = await initialise();
    expect(workspaceSchema.safeParse(draft).success).toBe(true);
    const href = linkOf(draft, REL.createWorkspace);
    expect(href).toMatch(new RegExp(`/api/workspaces/${draft.id}$`));
    expectError(await world.owner.api.get(`/api/workspaces/${draft.id}`), 404);

    const created = await world.owner.api.call('PUT', href, { name: ' Acme ', domains: ['@acme.example'], defaultEnvironment: '' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ id: draft.id, name: 'Acme', domains: ['acme.example'], status: 'PROVISIONING', defaultEnvironment: null });
    expect(created.body.deploymentSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    for (const rel of [REL.updateDeleteWorkspace, REL.createDeployment, REL.pipelines]) expect(hasLink(created.body, rel), rel).toBe(true);
    expect(hasLink(created.body, REL.createWorkspace)).toBe(false);

    const jobs = await world.owner.api.get(linkOf(created.body, REL.jobs));
    const init = embedded(jobs.body, 'jobs').find((j: { type: string }) => j.type === 'WORKSPACE_INIT');
    expect(init).toMatchObject({ status: 'QUEUED' });
    const mine = await world.owner.api.get('/api/workspaces?size=100');
    expect(embedded(mine.body, 'workspaces').map((w: { id: string }) => w.id)).toContain(draft.id);
  });

  it('refuses a caller who may not create workspaces (403), a non-uuid id (404) and a taken id of another workspace (409, as a create at a taken id)', async () => {
    expectError(await world.member.api.call('PUT', `/api/workspaces/${randomUUID()}`, { name: 'Mine' }), 403);
    expectError(await world.owner.api.call('PUT', '/api/workspaces/not-a-uuid', { name: 'Mine' }), 404);
    const theirs = randomUUID();
    await world.server.db.insertInto('workspaces').values({ id: theirs, name: 'Theirs', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
    expectError(await world.owner.api.call('PUT', `/api/workspaces/${theirs}`, { name: 'Mine now' }), 409);
  });

  it('answers 400 with a field error for a missing name, a bad domain and a bad repository URL on create', async () => {
    const draft = await initialise();
    const href = linkOf(draft, REL.createWorkspace);
    expectError(await world.owner.api.call('PUT', href, { name: '' }), 400, { name: 'Name is required' });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', domains: ['nope'] }), 400, { domains: /not a domain/ });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: 'ext::sh -c touch% /tmp/pwned' }), 400, { setRepositoryUrl: /not a repository URL/ });
    expectError(await world.owner.api.get(`/api/workspaces/${draft.id}`), 404);
  });
});

describe('the repository fields, the secret and the logo', () => {
  let href: string;
  let base: Record<string, unknown>;
  beforeAll(async () => {
    const draft = await initialise();
    const created = await world.owner.api.call('PUT', linkOf(draft, REL.createWorkspace), { name: 'Repo test' });
    base = created.body;
    href = linkOf(created.body, REL.updateDeleteWorkspace);
  });

  it('keeps branch, SSH key and installation id only where the URL allows them; the key is never returned', async () => {
    const ssh = await world.owner.api.call('PUT', href, { ...base, repositoryUrl: 'git@github.com:acme/data.git', repositoryBranch: 'develop', sshPrivateKey: KEY, githubInstallationId: '1234' });
    expect(ssh.status, JSON.stringify(ssh.body)).toBe(200);
    expect(ssh.body).toMatchObject({ repositoryUrl: 'git@github.com:acme/data.git', repositoryBranch: 'develop', githubInstallationId: '1234', sshPrivateKeySet: true });
    expect(JSON.stringify(ssh.body)).not.toContain('PRIVATE KEY');
    // Sent back as received (no key in it): the key stays.
    expect((await world.owner.api.call('PUT', href, ssh.body)).body.sshPrivateKeySet).toBe(true);
    // The list reads whether a key is set, never the key (repositories/workspaces.ts, WorkspaceShown).
    const list = await world.owner.api.get('/api/workspaces?size=100');
    const listed = (list.body as { _embedded: { workspaces: { id: string }[] } })._embedded.workspaces;
    expect(listed.find((w) => w.id === base.id)).toMatchObject({ sshPrivateKeySet: true, repositoryUrl: 'git@github.com:acme/data.git' });
    expect(JSON.stringify(list.body)).not.toContain('PRIVATE KEY');

    const local = await world.owner.api.call('PUT', href, { ...ssh.body, repositoryUrl: '/srv/git/data', repositoryBranch: 'develop', githubInstallationId: '1234' });
    expect(local.status, JSON.stringify(local.body)).toBe(200);
    expect(local.body).toMatchObject({ repositoryBranch: null, githubInstallationId: null, sshPrivateKeySet: false });
    const row = await world.server.db.selectFrom('workspaces').select('ssh_private_key').where('id', '=', String(base.id)).executeTakeFirstOrThrow();
    expect(row.ssh_private_key).toBeNull();
  });

  it('sends an answer written as JSON text whole, its length counted in bytes', async () => {
    const name = 'Données — été 🚀';
    expect((await world.owner.api.call('PUT', href, { ...base, name })).status).toBe(200);
    const response = await world.owner.api.raw('GET', `/api/workspaces/${String(base.id)}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect((JSON.parse(bytes.toString('utf8')) as { name: string }).name).toBe(name);
  });

  it('answers field errors for a key without a git@ URL, a bad branch and a non-numeric installation id', async () => {
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: 'https://github.com/acme/data', sshPrivateKey: KEY }), 400, { sshPrivateKey: /git@/ });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: 'https://github.com/acme/data', repositoryBranch: '../main' }), 400, { repositoryBranch: /branch/ });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: 'https://github.com/acme/data', githubInstallationId: 'abc' }), 400, { githubInstallationId: /number/ });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: 'git@github.com:a/b.git', sshPrivateKey: 'hunter2' }), 400, { sshPrivateKey: /private key/ });
  });

  it('refuses a local repository path outside REPOSITORY_LOCAL_ROOTS, inside the data directory or through a link out, beside the field', async () => {
    expect((await world.owner.api.call('PUT', href, { name: 'Local', repositoryUrl: path.join(roots, 'data') })).status).toBe(200);
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: '/etc' }), 400, { setRepositoryUrl: /not under a directory REPOSITORY_LOCAL_ROOTS allows/ });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: '/srv/gitlab/data' }), 400, { setRepositoryUrl: /not under a directory REPOSITORY_LOCAL_ROOTS allows/ });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: path.join(roots, 'etc-link') }), 400, { setRepositoryUrl: /not under a directory REPOSITORY_LOCAL_ROOTS allows/ });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: path.join(roots, 'data-link', 'projects') }), 400, { setRepositoryUrl: /inside the server's data directory/ });
    expectError(await world.owner.api.call('PUT', href, { name: 'x', repositoryUrl: dataDir }), 400, { setRepositoryUrl: /inside the server's data directory/ });
    // Nothing refused was stored.
    expect((await world.owner.api.get(href)).body.repositoryUrl).toBe(path.join(roots, 'data'));
  });

  it("regenerates the deployment secret when deploymentSecret is '' and keeps it otherwise", async () => {
    const before = (await world.owner.api.get(href)).body;
    const kept = await world.owner.api.call('PUT', href, { ...before, deploymentSecret: 'chosen-by-me' });
    expect(kept.body.deploymentSecret).toBe(before.deploymentSecret);
    const renewed = await world.owner.api.call('PUT', href, { name: before.name, domains: before.domains, imageUrl: before.imageUrl, deploymentSecret: '' });
    expect(renewed.status).toBe(200);
    expect(renewed.body.deploymentSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(renewed.body.deploymentSecret).not.toBe(before.deploymentSecret);
  });

  it('stores a PNG logo; an SVG logo with a script is refused, so none is ever stored or served', async () => {
    const saved = await world.owner.api.call('PUT', href, { name: 'Logo', imageUrl: PNG });
    expect(saved.body.imageUrl).toBe(PNG);
    expectError(await world.owner.api.call('PUT', href, { name: 'Logo', imageUrl: SVG_WITH_SCRIPT }), 400, { imageUrl: 'must be a PNG or JPEG image' });
    // A PNG label on other bytes is refused too: the bytes decide.
    const fake = `data:image/png;base64,${Buffer.from('<svg onload="alert(1)"/>').toString('base64')}`;
    expectError(await world.owner.api.call('PUT', href, { name: 'Logo', imageUrl: fake }), 400, { imageUrl: 'must be a PNG or JPEG image' });
    // A right signature on base64 cut short is no image a browser can draw.
    expectError(await world.owner.api.call('PUT', href, { name: 'Logo', imageUrl: PNG.slice(0, -2) }), 400, { imageUrl: 'must be a PNG or JPEG image' });
    const served = await world.owner.api.get(href);
    expect(served.body.imageUrl).toBe(PNG);
    // (not /script/: the body's 'subscriptions' links contain the word)
    expect(JSON.stringify(served.body)).not.toMatch(/image\/svg|<svg|<script|onload/i);
  });

  it('shows the secret and key state to admins only', async () => {
    const asMember = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    expect(asMember.body.deploymentSecret ?? null).toBeNull();
    expect(hasLink(asMember.body, REL.createDeployment)).toBe(false);
  });
});

describe("POST the workspace's create deployment link", () => {
  it('queues one WORKSPACE_DEPLOY job (202), refuses a second while it is queued (409), members (403) and strangers (403)', async () => {
    const draft = await initialise();
    const created = await world.owner.api.call('PUT', linkOf(draft, REL.createWorkspace), { name: 'Deploy test' });
    const deploy = linkOf(created.body, REL.createDeployment);
    const answer = await world.owner.api.call('POST', deploy);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(jobSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toMatchObject({ type: 'WORKSPACE_DEPLOY', status: 'QUEUED' });
    expectError(await world.owner.api.call('POST', deploy), 409);
    expectError(await world.member.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/deployments`), 403);
    expectError(await world.outsider.api.call('POST', deploy), 404);
    // While its jobs are queued the workspace cannot be deleted.
    expectError(await world.owner.api.call('DELETE', linkOf(created.body, REL.updateDeleteWorkspace)), 409);
  });
});
