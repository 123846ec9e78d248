import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { jobsCollectionSchema, membersCollectionSchema, workspaceSchema, workspacesCollectionSchema } from '../../src/domain/resources';
import { DEMO, DEMO_DASHBOARD } from '../../server/seed';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
});
afterAll(async () => {
  await world?.close();
});

const ADMIN_RELS = [
  REL.updateDeleteWorkspace,
  REL.jobs,
  REL.createInvitation,
  // the Lab
  REL.newPipeline,
  REL.pipelines,
  REL.datastores,
  REL.datastore,
  REL.datacomponents,
  REL.createDatacomponent,
  REL.dataplugins,
  REL.newDatastore,
];
const READ_RELS = [REL.self, REL.channels, REL.questions, REL.feed, REL.search, REL.members, REL.tags, REL.invitations];
const MISSING = '00000000-0000-4000-8000-000000000000';

describe('GET /api/workspaces', () => {
  it("lists the caller's workspaces by name, paged, with the default flag", async () => {
    const answer = await world.owner.api.get('/api/workspaces?size=99');
    expect(answer.status).toBe(200);
    expect(workspacesCollectionSchema.safeParse(answer.body).success).toBe(true);
    const workspaces = answer.body._embedded.workspaces as { id: string; name: string; default: boolean }[];
    expect(workspaces.map((w) => w.name)).toEqual([DEMO.sandboxWorkspaceName, DEMO.workspaceName]);
    expect(workspaces.find((w) => w.id === DEMO.workspaceId)?.default).toBe(true);
    expect(answer.body.page).toEqual({ size: 99, totalElements: 2, totalPages: 1, number: 0 });
    expect(linkOf(answer.body, 'self')).toContain(`${world.baseUrl}/api/workspaces?`);

    const paged = await world.owner.api.get('/api/workspaces?size=1&page=1');
    expect(embedded(paged.body, 'workspaces').map((w: { name: string }) => w.name)).toEqual([DEMO.workspaceName]);
    expect(hasLink(paged.body, 'prev')).toBe(true);
    expect(hasLink(paged.body, 'next')).toBe(false);
  });

  it('shows the member only the workspace they belong to, and the outsider none', async () => {
    const member = await world.member.api.get('/api/workspaces?size=99');
    expect(embedded(member.body, 'workspaces').map((w: { id: string }) => w.id)).toEqual([DEMO.workspaceId]);
    const outsider = await world.outsider.api.get('/api/workspaces?size=99');
    expect(outsider.body._embedded.workspaces).toEqual([]);
    expect(outsider.body.page.totalElements).toBe(0);
  });

  it('rejects bad paging with field errors and answers 401 without a token', async () => {
    expectError(await world.owner.api.get('/api/workspaces?size=zero'), 400, { size: /.+/ });
    expectError(await world.owner.api.get('/api/workspaces?sort=secret,asc'), 400, { sort: /.+/ });
    expectError(await world.anonymous.get('/api/workspaces'), 401);
  });
});

describe('GET /api/workspaces/{id}', () => {
  it('renders the admin links for the owner', async () => {
    const answer = await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    expect(answer.status).toBe(200);
    expect(workspaceSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toMatchObject({
      id: DEMO.workspaceId,
      name: DEMO.workspaceName,
      default: true,
      appProperties: { HOME_PAGE: 'feed', FEATURE_QUESTIONS: 'true', TOOLBAR_SEARCH_ALT_TEXT: 'Search all datasets', DASHBOARD_CONTENT: DEMO_DASHBOARD },
      status: 'READY',
      domains: [],
    });
    for (const rel of [...READ_RELS, ...ADMIN_RELS]) expect(hasLink(answer.body, rel), rel).toBe(true);
    expect(linkOf(answer.body, REL.questions)).toBe(`${world.baseUrl}/api/workspaces/${DEMO.workspaceId}/questions`);
  });

  it('renders only the reads for a plain member', async () => {
    const answer = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    expect(answer.status).toBe(200);
    for (const rel of READ_RELS) expect(hasLink(answer.body, rel), rel).toBe(true);
    for (const rel of ADMIN_RELS) expect(hasLink(answer.body, rel), rel).toBe(false);
  });

  it('answers 404 for a workspace the caller is not in (as for none), 404 for none, 401 without a token', async () => {
    expectError(await world.member.api.get(`/api/workspaces/${DEMO.sandboxWorkspaceId}`), 404);
    expectError(await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}`), 404);
    expectError(await world.owner.api.get(`/api/workspaces/${MISSING}`), 404);
    expectError(await world.owner.api.get('/api/workspaces/not-an-id'), 404);
    expectError(await world.anonymous.get(`/api/workspaces/${DEMO.workspaceId}`), 401);
  });
});

describe('GET /api/workspaces/{id}/members', () => {
  it('lists the members with name, email, handle and role', async () => {
    const workspace = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    const answer = await world.member.api.get(linkOf(workspace.body, REL.members));
    expect(answer.status).toBe(200);
    expect(membersCollectionSchema.safeParse(answer.body).success).toBe(true);
    const members = answer.body._embedded.members as { id: string; role: string; handle: string; email: string }[];
    expect(members).toHaveLength(2);
    expect(members.find((m) => m.id === world.owner.subject)).toMatchObject({ role: 'owner', handle: '@olivia', email: DEMO.owner.email, name: DEMO.owner.name });
    expect(members.find((m) => m.id === world.member.subject)).toMatchObject({ role: 'member', handle: '@max' });
  });

  it('says who is an administrator, the same to the owner and to a plain member', async () => {
    for (const caller of [world.owner, world.member]) {
      const answer = await caller.api.get(`/api/workspaces/${DEMO.workspaceId}/members`);
      const parsed = membersCollectionSchema.parse(answer.body);
      const byId = new Map((parsed._embedded?.members ?? []).map((m) => [m.id, m]));
      expect(byId.get(world.owner.subject)).toMatchObject({ name: DEMO.owner.name, handle: '@olivia', administrator: true });
      expect(byId.get(world.member.subject)).toMatchObject({ handle: '@max', administrator: false });
    }
  });

  it("pages by name through 'next', every member once", async () => {
    const first = await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}/members?size=1`);
    expect(first.body.page).toEqual({ size: 1, totalElements: 2, totalPages: 2, number: 0 });
    expect(hasLink(first.body, 'next')).toBe(true);
    const second = await world.owner.api.get(linkOf(first.body, 'next'));
    expect(hasLink(second.body, 'next')).toBe(false);
    const names = [...embedded(first.body, 'members'), ...embedded(second.body, 'members')].map((m: { name: string }) => m.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names)).toEqual(new Set([DEMO.owner.name, DEMO.member.name]));
  });

  it('answers 404 outside the workspace (as for none), 404 for none, 401 without a token', async () => {
    expectError(await world.member.api.get(`/api/workspaces/${DEMO.sandboxWorkspaceId}/members`), 404);
    // a caller of no workspace learns nothing of the demo's people
    const outsider = await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}/members`);
    expectError(outsider, 404);
    expect(JSON.stringify(outsider.body)).not.toContain(DEMO.owner.email);
    expectError(await world.owner.api.get(`/api/workspaces/${MISSING}/members`), 404);
    expectError(await world.anonymous.get(`/api/workspaces/${DEMO.workspaceId}/members`), 401);
  });
});

describe('GET /api/workspaces/{id}/jobs', () => {
  it('lists the jobs newest first for an admin, each with logs and delete job links', async () => {
    const workspace = await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    const answer = await world.owner.api.get(linkOf(workspace.body, REL.jobs));
    expect(answer.status).toBe(200);
    expect(jobsCollectionSchema.safeParse(answer.body).success).toBe(true);
    const jobs = answer.body._embedded.jobs as { type: string; status: string; created: string; _embedded: { profile: { email: string } } }[];
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    const created = jobs.map((j) => Date.parse(j.created));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    // Every setup task is complete, so the owner lands in the Lab.
    expect(jobs.filter((j) => j.type.startsWith('PROFILE_')).every((j) => j.status === 'COMPLETE')).toBe(true);
    for (const job of answer.body._embedded.jobs) {
      expect(job._embedded.profile.email).toBe(DEMO.owner.email);
      expect(hasLink(job, REL.logs)).toBe(true);
      expect(hasLink(job, REL.deleteJob)).toBe(true);
      expect(job).toEqual(expect.objectContaining({ id: expect.any(String), attempt: 1, maxAttempts: 1, startTime: expect.any(String), endTime: expect.any(String) }));
    }
  });

  it('refuses a plain member, whose workspace carries no jobs link (403)', async () => {
    const workspace = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    expect(hasLink(workspace.body, REL.jobs)).toBe(false);
    expectError(await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}/jobs`), 403);
  });

  it('answers 404 outside the workspace (as for none), 404 for none, 400 for bad paging, 401 without a token', async () => {
    expectError(await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}/jobs`), 404);
    expectError(await world.owner.api.get(`/api/workspaces/${MISSING}/jobs`), 404);
    expectError(await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}/jobs?page=-1`), 400, { page: /.+/ });
    expectError(await world.anonymous.get(`/api/workspaces/${DEMO.workspaceId}/jobs`), 401);
  });
});
