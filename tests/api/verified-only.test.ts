import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { DEMO } from '../../server/seed';
import { clientCredentialsToken } from '../support/auth';
import { apiClient, embedded, expectError, hasLink, linkOf, type Answer } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';
import { demoPipeline } from './lab/labWorld';

// Issue 36, item 4: only an account with a verified email creates workspaces or runs anything.
// Each refusal is checked both ways, as every permission is: the link is not offered, and the
// request is refused (403) with a message that names email verification — what the SPA's
// /notverified page tells the same person.

const VERIFY = /verify your email/i;
const STORE = { name: 'Theirs', dataPlugin: 'loaders/target-postgres--builtin', properties: { host: '127.0.0.1', port: 5432, database: 'x', user: 'x', password: 'x-password', schema: 'x' } };

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.unverified), login(world.outsider)]);
});
afterAll(() => world?.close());

function expectVerifyEmail(answer: Answer): void {
  expectError(answer, 403);
  expect(answer.body.message).toMatch(VERIFY);
}

const jobsOf = (profileId: string) => world.server.db.selectFrom('jobs').select('id').where('profile_id', '=', profileId).execute();

describe('an account whose email is not verified', () => {
  it("is offered no 'new workspace', and POST and PUT /api/workspaces are refused naming email verification", async () => {
    const { api, subject } = world.unverified;
    // the profile carries the owner's mark (SELF_SERVE_WORKSPACES): only the verification is missing
    expect((await world.server.db.selectFrom('profiles').select('can_create_workspaces').where('id', '=', subject).executeTakeFirstOrThrow()).can_create_workspaces).toBe(true);
    const root = await api.get('/api/');
    expect(hasLink(root.body, REL.newWorkspace)).toBe(false);
    const profile = await api.get(`/api/profiles/${encodeURIComponent(subject)}`);
    expect(profile.status).toBe(200);
    expect(hasLink(profile.body, REL.newWorkspace)).toBe(false);

    expectVerifyEmail(await api.call('POST', '/api/workspaces'));
    const id = randomUUID();
    expectVerifyEmail(await api.call('PUT', `/api/workspaces/${id}`, { name: 'Mine anyway' }));
    expect(await world.server.db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    // a taken id answers the same: the refusal tells nothing about which ids exist
    expectVerifyEmail(await api.call('PUT', `/api/workspaces/${DEMO.sandboxWorkspaceId}`, { name: 'Mine anyway' }));
    expect(await jobsOf(subject)).toEqual([]);
  });

  it('while a verified account with the same mark is offered it and creates a workspace, as before', async () => {
    const { api } = world.outsider;
    const root = await api.get('/api/');
    const draft = await api.call('POST', linkOf(root.body, REL.newWorkspace));
    expect(draft.status).toBe(201);
    const created = await api.call('PUT', linkOf(draft.body, REL.createWorkspace), { name: 'Verified and welcome' });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('PROVISIONING');
  });

  it('as an admin of a workspace (made before the rule) starts no job, deployment or store check: no links, and 403', async () => {
    const { api, subject } = world.unverified;
    await world.server.db.insertInto('workspace_members').values({ workspace_id: DEMO.workspaceId, profile_id: subject, role: 'owner' }).execute();
    const pipeline = await demoPipeline(world.owner.api, 'Verified callers only');
    const store = await world.owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/datastores`, { ...STORE, draft: true });
    expect(store.status).toBe(201);

    // The verified owner is offered all of it...
    const ownersWorkspace = (await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body;
    for (const rel of [REL.createDeployment, REL.newDatastore]) expect(hasLink(ownersWorkspace, rel), rel).toBe(true);
    for (const rel of [REL.createJob, REL.verifyPipeline]) expect(hasLink(pipeline, rel), rel).toBe(true);
    expect(hasLink(store.body, REL.updateDatastore)).toBe(true);

    // ...the unverified owner still reads the Lab, but is offered nothing that runs...
    const workspace = await api.get(`/api/workspaces/${DEMO.workspaceId}`);
    expect(workspace.status).toBe(200);
    expect(hasLink(workspace.body, REL.pipelines)).toBe(true);
    for (const rel of [REL.createDeployment, REL.newDatastore]) expect(hasLink(workspace.body, rel), rel).toBe(false);
    const seen = await api.get(linkOf(pipeline, REL.self));
    expect(seen.status).toBe(200);
    for (const rel of [REL.createJob, REL.verifyPipeline]) expect(hasLink(seen.body, rel), rel).toBe(false);
    const listed = await api.get(`/api/workspaces/${DEMO.workspaceId}/pipelines`);
    const rows = embedded(listed.body, 'pipelines');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => hasLink(row, REL.createJob))).toBe(false);
    const seenStore = await api.get(linkOf(store.body, REL.self));
    expect(hasLink(seenStore.body, REL.updateDatastore)).toBe(false);

    // ...and each request is refused through the same policy, saying why.
    expectVerifyEmail(await api.call('POST', linkOf(pipeline, REL.createJob)));
    expectVerifyEmail(await api.call('POST', linkOf(pipeline, REL.verifyPipeline)));
    expectVerifyEmail(await api.call('POST', linkOf(ownersWorkspace, REL.createDeployment)));
    expectVerifyEmail(await api.call('POST', linkOf(ownersWorkspace, REL.newDatastore), STORE));
    expectVerifyEmail(await api.call('PUT', linkOf(store.body, REL.updateDatastore), { properties: STORE.properties }));
    expect(await jobsOf(subject)).toEqual([]);
  });

  it("leaves an API key's token, which acts for its verified owner, its 'create job'", async () => {
    const root = await world.owner.api.get('/api/');
    const draft = await world.owner.api.call('POST', linkOf(root.body, REL.newApiKey));
    const key = await world.owner.api.call('PUT', linkOf(draft.body, REL.createApiKey), { ...draft.body, name: 'automation' });
    expect(key.status).toBe(201);
    const token = await clientCredentialsToken(world.baseUrl, key.body.clientId as string, key.body.clientSecret as string);
    const asKey = apiClient(world.baseUrl, token.accessToken);
    const pipeline = await demoPipeline(world.owner.api, 'Run by a key');
    const seen = await asKey.get(linkOf(pipeline, REL.self));
    expect(hasLink(seen.body, REL.createJob)).toBe(true);
    expect((await asKey.call('POST', linkOf(seen.body, REL.createJob))).status).toBe(201);
  });
});
