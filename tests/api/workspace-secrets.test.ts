import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdpUser } from '../../server/identity/users';
import { DEMO } from '../../server/seed';
import { signIn } from '../support/auth';
import { REL } from '../../src/domain/relations';
import { apiClient, embedded, linkOf } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';

// Who sees a workspace's deployment secret and SSH key (issue 40, item 1). The demo workspace is
// given both through the owner's PUT; then the owner, a member, an outsider and another
// workspace's admin each ask every route that answers a workspace, and each answer's raw text is
// read: the key never comes back to anyone, the secret only to the workspace's admins (to set up
// their webhook: docs/decisions.md, workspaces), never to a member or anyone outside. The expected
// answers are written here by hand, not taken from the policy. These answers are written as JSON
// text; the test server also holds each to its response schema (CHECK_TEXT_ANSWERS).

const W = DEMO.workspaceId;
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAissue40secretkeymaterial\n-----END OPENSSH PRIVATE KEY-----';
const KEY_MATERIAL = 'b3BlbnNzaC1rZXktdjEAAAAAissue40secretkeymaterial';

let world: World;
let secret: string;
let otherAdmin: Person;
let otherWorkspaceId: string;

interface Raw {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are read loosely and asserted field by field
  body: any;
}

async function raw(who: Person, method: string, path: string, body?: unknown): Promise<Raw> {
  const url = path.startsWith('http') ? path : `${world.baseUrl}${path}`;
  const answer = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${who.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, text, body: text && answer.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  // the owner gives the demo workspace an SSH key (for a git@ URL) and a new deployment secret
  const set = await raw(world.owner, 'PUT', `/api/workspaces/${W}`, { name: DEMO.workspaceName, repositoryUrl: 'git@github.com:acme/analytics.git', sshPrivateKey: KEY, deploymentSecret: '' });
  expect(set.status, set.text).toBe(200);
  secret = set.body.deploymentSecret;
  expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  const stored = await world.server.db.selectFrom('workspaces').select(['deployment_secret', 'ssh_private_key']).where('id', '=', W).executeTakeFirstOrThrow();
  expect(stored).toEqual({ deployment_secret: secret, ssh_private_key: KEY });
  // another workspace and its owner: an admin, but not of the demo workspace
  const root = await raw(world.owner, 'GET', '/api/');
  const draft = await raw(world.owner, 'POST', linkOf(root.body, REL.newWorkspace));
  expect(draft.status).toBe(201);
  const created = await raw(world.owner, 'PUT', linkOf(draft.body, REL.createWorkspace), { name: 'Another workspace' });
  expect(created.status, created.text).toBe(201);
  otherWorkspaceId = created.body.id;
  await world.server.db.deleteFrom('workspace_members').where('workspace_id', '=', otherWorkspaceId).execute();
  const other = { name: 'Olga Other', email: 'other-admin@example.com', password: 'other-admin-password' };
  const user = await createIdpUser(world.server.db, { ...other, emailVerified: true });
  const tokens = await signIn(world.baseUrl, { email: other.email, password: other.password });
  otherAdmin = { subject: user.subject, email: other.email, name: other.name, token: tokens.accessToken, api: apiClient(world.baseUrl, tokens.accessToken) };
  await login(otherAdmin);
  await world.server.db.insertInto('workspace_members').values({ workspace_id: otherWorkspaceId, profile_id: otherAdmin.subject, role: 'owner' }).execute();
}, 120_000);
afterAll(() => world?.close());

/** What an answer about the demo workspace shows of its secrets. */
const secretsOf = (workspace: { deploymentSecret?: unknown; sshPrivateKeySet?: unknown }) => ({ deploymentSecret: workspace.deploymentSecret ?? null, sshPrivateKeySet: workspace.sshPrivateKeySet ?? null });

function neverTheKey(answer: Raw, what: string): void {
  expect(answer.text, what).not.toContain(KEY_MATERIAL);
  expect(answer.text, what).not.toMatch(/PRIVATE KEY|ssh_private_key|sshPrivateKey"/);
}

describe('the deployment secret and the SSH key, on every route that answers a workspace', () => {
  it('GET /api/workspaces/{id}: the owner sees the secret and that a key is set; a member neither; outsiders 404', async () => {
    const owner = await raw(world.owner, 'GET', `/api/workspaces/${W}`);
    expect(owner.status).toBe(200);
    expect(secretsOf(owner.body)).toEqual({ deploymentSecret: secret, sshPrivateKeySet: true });
    neverTheKey(owner, 'owner');

    const member = await raw(world.member, 'GET', `/api/workspaces/${W}`);
    expect(member.status).toBe(200);
    expect(secretsOf(member.body)).toEqual({ deploymentSecret: null, sshPrivateKeySet: null });
    expect(member.text).not.toContain(secret);
    neverTheKey(member, 'member');

    for (const [who, person] of [['outsider', world.outsider], ['another workspace’s admin', otherAdmin]] as const) {
      const answer = await raw(person, 'GET', `/api/workspaces/${W}`);
      expect(answer.status, who).toBe(404);
      expect(answer.text, who).not.toContain(secret);
      neverTheKey(answer, who);
    }
  });

  it('GET /api/workspaces: the same per entry, and no entry at all for the demo workspace outside it', async () => {
    const owner = await raw(world.owner, 'GET', '/api/workspaces?size=100');
    expect(owner.status).toBe(200);
    const ownersEntry = embedded(owner.body, 'workspaces').find((w: { id: string }) => w.id === W);
    expect(secretsOf(ownersEntry)).toEqual({ deploymentSecret: secret, sshPrivateKeySet: true });
    neverTheKey(owner, 'owner');

    const member = await raw(world.member, 'GET', '/api/workspaces?size=100');
    expect(member.status).toBe(200);
    expect(embedded(member.body, 'workspaces').map((w: { id: string }) => w.id)).toEqual([W]);
    expect(secretsOf(embedded(member.body, 'workspaces')[0])).toEqual({ deploymentSecret: null, sshPrivateKeySet: null });
    expect(member.text).not.toContain(secret);
    neverTheKey(member, 'member');

    const other = await raw(otherAdmin, 'GET', '/api/workspaces?size=100');
    expect(other.status).toBe(200);
    const theirs = embedded(other.body, 'workspaces');
    expect(theirs.map((w: { id: string }) => w.id)).toEqual([otherWorkspaceId]);
    // their own workspace's secret (they are its admin), never the demo workspace's
    expect(theirs[0].deploymentSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(theirs[0].deploymentSecret).not.toBe(secret);
    expect(other.text).not.toContain(secret);
    neverTheKey(other, 'another workspace’s admin');
  });

  it('PUT /api/workspaces/{id}: the owner’s update answers the secret, never the key; everyone else is refused without it', async () => {
    const owner = await raw(world.owner, 'PUT', `/api/workspaces/${W}`, { name: DEMO.workspaceName });
    expect(owner.status, owner.text).toBe(200);
    expect(secretsOf(owner.body)).toEqual({ deploymentSecret: secret, sshPrivateKeySet: true });
    neverTheKey(owner, 'owner');

    // (someone outside who may create workspaces is answered 409 'already exists': their PUT is read as a create)
    for (const [who, person, status] of [['member', world.member, 403], ['outsider', world.outsider, 409], ['another workspace’s admin', otherAdmin, 409]] as const) {
      const answer = await raw(person, 'PUT', `/api/workspaces/${W}`, { name: 'Taken over' });
      expect(answer.status, who).toBe(status);
      expect(answer.text, who).not.toContain(secret);
      neverTheKey(answer, who);
    }
    expect((await world.server.db.selectFrom('workspaces').select('name').where('id', '=', W).executeTakeFirstOrThrow()).name).toBe(DEMO.workspaceName);
  });

  it('POST /api/workspaces (a new id) carries no secret of any workspace', async () => {
    const owner = await raw(world.owner, 'POST', '/api/workspaces');
    expect(owner.status).toBe(201);
    expect(secretsOf(owner.body)).toEqual({ deploymentSecret: null, sshPrivateKeySet: null });
    expect(owner.text).not.toContain(secret);
    neverTheKey(owner, 'owner');
    const member = await raw(world.member, 'POST', '/api/workspaces');
    expect(member.status).toBe(403);
    expect(member.text).not.toContain(secret);
  });

  it('a member is never sent the secret, however they ask: the settings of their workspace, its list entry, its page', async () => {
    // Every answer a member reads about the workspace, raw: none holds the secret or the key.
    const workspace = await raw(world.member, 'GET', `/api/workspaces/${W}`);
    const answers = [workspace, await raw(world.member, 'GET', '/api/workspaces'), await raw(world.member, 'GET', '/api/')];
    for (const rel of [REL.members, REL.datasets]) {
      if (workspace.body._links?.[rel]) answers.push(await raw(world.member, 'GET', linkOf(workspace.body, rel)));
    }
    for (const answer of answers) {
      expect(answer.status).toBeLessThan(300);
      expect(answer.text).not.toContain(secret);
      neverTheKey(answer, 'member');
    }
  });
});
