import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { jobsCollectionSchema } from '../../src/domain/resources';
import { SETUP_TASK_TYPES } from '../../src/domain/setupTasks';
import { DEMO } from '../../server/seed';
import * as setupTasks from '../../server/setupTasks';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';
import { demoPipeline, outsiderWorkspace, type Body } from './lab/labWorld';

// Setup tasks (spec 001 §2–§4) are PROFILE_* jobs produced by real events of the workspace: each
// test below causes the event through the API and reads the task back through the jobs link.

let world: World;
let outsiderWs: string;
const tasksUrl = (workspaceId: string = DEMO.workspaceId) => `/api/workspaces/${workspaceId}/jobs?type=${SETUP_TASK_TYPES.join(',')}&size=50`;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  outsiderWs = await outsiderWorkspace(world);
  // The workspace's creation opens the to-do list (the create route calls this in its transaction).
  await setupTasks.workspaceCreated(world.server.db, DEMO.workspaceId, world.owner.subject);
  await setupTasks.workspaceCreated(world.server.db, outsiderWs, world.outsider.subject);
});
afterAll(() => world?.close());

async function tasks(): Promise<Body[]> {
  const answer = await world.owner.api.get(tasksUrl());
  expect(answer.status).toBe(200);
  expect(jobsCollectionSchema.safeParse(answer.body).success).toBe(true);
  return embedded(answer.body, 'jobs') as Body[];
}
const ofType = (list: Body[], type: string) => list.filter((t) => t.type === type);

describe('setup tasks of a new workspace', () => {
  it('opens import, collaborate and publish as QUEUED, once, whatever process asks again', async () => {
    await Promise.all([1, 2, 3].map(() => setupTasks.workspaceCreated(world.server.db, DEMO.workspaceId, world.owner.subject)));
    const list = await tasks();
    // (the demo seed's own saves left completed ones beside them)
    for (const type of setupTasks.OPENING_TASKS) {
      const open = ofType(list, type).filter((t) => t.status === 'QUEUED');
      expect(open).toHaveLength(1);
      expect(open[0]).toMatchObject({ commitId: null });
    }
  });

  it('lists only setup tasks when asked by type, and refuses a malformed type with a field error', async () => {
    expect((await tasks()).every((t) => String(t.type).startsWith('PROFILE_'))).toBe(true);
    expectError(await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}/jobs?type=profile import`), 400, { type: /PROFILE_IMPORT/ });
  });

  it('offers an open task its dismissal (delete job) but no withdraw: it runs no process', async () => {
    const [open] = ofType(await tasks(), 'PROFILE_PUBLISH');
    expect(hasLink(open, REL.deleteJob)).toBe(true);
    expect(hasLink(open, REL.withdrawJob)).toBe(false);
  });
});

describe('events complete or open tasks', () => {
  it('a saved pipeline completes the import task with a 40-hex commit id', async () => {
    await demoPipeline(world.owner.api, `Setup import ${randomUUID().slice(0, 6)}`);
    const list = ofType(await tasks(), 'PROFILE_IMPORT');
    expect(list.map((t) => String(t.status))).toEqual(['COMPLETE', 'COMPLETE']);
    const [task] = list;
    expect(task?.commitId).toMatch(/^[0-9a-f]{40}$/);
  });

  it('a draft pipeline opens a configure task naming it; saving it for use completes that task', async () => {
    const workspace = await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    const initial = await world.owner.api.call('POST', linkOf(workspace.body, REL.newPipeline));
    const name = `Setup draft ${randomUUID().slice(0, 6)}`;
    const draft = await world.owner.api.call('PUT', linkOf(initial.body, REL.draftPipeline), { name, dataComponents: ['extractors/tap-demo', 'loaders/target-store'] });
    expect([200, 201]).toContain(draft.status);
    const opened = ofType(await tasks(), 'PROFILE_CONFIGURE_PIPELINE').find((t) => t._embedded?.pipeline?.id === draft.body.id);
    expect(opened).toMatchObject({ status: 'QUEUED', _embedded: { pipeline: { id: draft.body.id, name } } });

    const saved = await world.owner.api.call('PUT', linkOf(draft.body, REL.createPipeline), { name, dataComponents: ['extractors/tap-demo', 'loaders/target-store'] });
    expect([200, 201]).toContain(saved.status);
    const done = ofType(await tasks(), 'PROFILE_CONFIGURE_PIPELINE').filter((t) => t._embedded?.pipeline?.id === draft.body.id);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ status: 'COMPLETE' });
    // the task is not the pipeline's job: its history stays empty
    const history = await world.owner.api.get(linkOf(saved.body, REL.jobs));
    expect(embedded(history.body, 'jobs')).toEqual([]);
  });

  it('a draft data store opens a configure task naming it', async () => {
    const workspace = await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    const store = await world.owner.api.call('POST', linkOf(workspace.body, REL.newDatastore), { name: 'Setup later', dataPlugin: 'loaders/target-postgres', properties: { database: 'test' }, draft: true });
    expect(store.status).toBe(201);
    const task = ofType(await tasks(), 'PROFILE_CONFIGURE_DATASTORE').find((t) => t._embedded?.datastore?.id === store.body.id);
    expect(task).toMatchObject({ status: 'QUEUED', _embedded: { datastore: { id: store.body.id, name: 'Setup later' } } });
  });

  it('an invitation completes the collaborate task', async () => {
    const sent = await world.owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/invitations`, { email: `setup-${randomUUID().slice(0, 6)}@example.com` });
    expect(sent.status).toBe(201);
    expect(ofType(await tasks(), 'PROFILE_COLLABORATE')[0]).toMatchObject({ status: 'COMPLETE' });
  });

  it('a published dataset completes the publish task', async () => {
    const published = await world.owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/datasets`, { title: `Setup dataset ${randomUUID().slice(0, 6)}` });
    expect(published.status).toBe(201);
    const [task] = ofType(await tasks(), 'PROFILE_PUBLISH');
    expect(task).toMatchObject({ status: 'COMPLETE' });
    expect(task?.commitId).toMatch(/^[0-9a-f]{40}$/);
  });

  it('a refused save (400) changes no task', async () => {
    const before = await tasks();
    const workspace = await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    const initial = await world.owner.api.call('POST', linkOf(workspace.body, REL.newPipeline));
    expectError(await world.owner.api.call('PUT', linkOf(initial.body, REL.createPipeline), { name: '', dataComponents: ['extractors/tap-demo'] }), 400, { name: /./ });
    expect(await tasks()).toEqual(before);
  });
});

describe('dismissing a task: DELETE /api/jobs/{id}', () => {
  it('refuses a plain member (no jobs link, 403), an outsider (404, as for no such id) and an unknown id (404)', async () => {
    const [open] = ofType(await tasks(), 'PROFILE_CONFIGURE_DATASTORE');
    const workspace = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    expect(hasLink(workspace.body, REL.jobs)).toBe(false);
    expectError(await world.member.api.get(tasksUrl()), 403);
    expectError(await world.member.api.call('DELETE', `/api/jobs/${String(open?.id)}`), 403);
    expectError(await world.outsider.api.call('DELETE', `/api/jobs/${String(open?.id)}`), 404);
    expectError(await world.outsider.api.get(tasksUrl()), 404);
    expectError(await world.owner.api.call('DELETE', `/api/jobs/${randomUUID()}`), 404);
  });

  it('an admin dismisses an open task (204); it is gone and the same event does not bring it back as open', async () => {
    const [open] = ofType(await tasks(), 'PROFILE_CONFIGURE_DATASTORE');
    const answer = await world.owner.api.call('DELETE', linkOf(open, REL.deleteJob));
    expect(answer.status).toBe(204);
    expect(ofType(await tasks(), 'PROFILE_CONFIGURE_DATASTORE').find((t) => t.id === open?.id)).toBeUndefined();
    expectError(await world.owner.api.get(`/api/jobs/${String(open?.id)}`), 404);
  });

  it("another workspace's tasks stay its own", async () => {
    const theirs = await world.outsider.api.get(tasksUrl(outsiderWs));
    expect(theirs.status).toBe(200);
    const list = embedded(theirs.body, 'jobs') as Body[];
    expect(list.map((t) => String(t.status))).toEqual(['QUEUED', 'QUEUED', 'QUEUED']);
    expectError(await world.owner.api.get(tasksUrl(outsiderWs)), 404);
    expectError(await world.owner.api.call('DELETE', `/api/jobs/${String(list[0]?.id)}`), 404);
  });

  it('open setup tasks do not keep a workspace from being deleted', async () => {
    const answer = await world.outsider.api.call('DELETE', `/api/workspaces/${outsiderWs}`);
    expect(answer.status).toBe(204);
  });
});
