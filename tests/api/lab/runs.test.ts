import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASK } from '../../../src/domain/pipelineRules';
import { REL } from '../../../src/domain/relations';
import { environmentSchema, jobSchema, jobsCollectionSchema, logEntrySchema, metricsSchema } from '../../../src/domain/resources';
import { DEMO } from '../../../server/seed';
import { appendLogLines } from '../../../server/runner/logs';
import { claimNextJob, finishJob } from '../../../server/runner/queue';
import { embedded, expectError, hasLink, linkOf, type ApiClient } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { demoPipeline, givePostgresComponent, outsiderWorkspace, type Body } from './labWorld';

// Jobs of a pipeline through its links. No runner runs in these tests: where a job must be
// RUNNING or end, the test plays the runner with the queue's own functions (claim, finish).

let world: World;
let owner: ApiClient;
const RUNNER = 'test-runner';

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  await outsiderWorkspace(world);
  owner = world.owner.api;
});
afterAll(() => world?.close());

const refresh = async (pipeline: Body): Promise<Body> => (await owner.get(linkOf(pipeline, REL.self))).body as Body;

async function claim(): Promise<string> {
  const job = await claimNextJob(world.server.db, RUNNER, 60_000);
  if (!job) throw new Error('nothing to claim');
  return job.id;
}

const finish = (jobId: string, exitCode: number) => finishJob(world.server.db, jobId, RUNNER, { reason: 'EXITED', exitCode, lines: [], retryBaseMs: 0 });

describe('create job, conflict, withdraw', () => {
  it('starts a job (201 QUEUED), refuses a second start with 409, offers withdraw, and withdraws a queued job to STOPPED (200)', async () => {
    const pipeline = await demoPipeline(owner, 'Runs once at a time');
    const started = await owner.call('POST', linkOf(pipeline, REL.createJob));
    expect(started.status).toBe(201);
    expect(jobSchema.safeParse(started.body).success).toBe(true);
    expect(started.body).toMatchObject({ status: 'QUEUED', type: 'PIPELINE_RUN', attempt: 1, maxAttempts: 1, exitCode: null, rowsLoaded: 0, _embedded: { profile: { email: DEMO.owner.email }, pipeline: { id: pipeline.id } } });

    const second = await owner.call('POST', linkOf(pipeline, REL.createJob));
    expectError(second, 409);
    const verify = await owner.call('POST', linkOf(pipeline, REL.verifyPipeline));
    expectError(verify, 409);

    const active = await refresh(pipeline);
    expect(active._embedded['latest job'].id).toBe(started.body.id);
    expect(linkOf(active, REL.withdrawJob)).toBe(`${world.baseUrl}/api/jobs/${started.body.id}/stopped`);
    expect(hasLink(active, REL.deletePipeline)).toBe(false);
    expectError(await owner.call('DELETE', `/api/pipelines/${pipeline.id}`), 403);
    expect(hasLink(started.body, REL.deleteJob)).toBe(false);

    expectError(await world.member.api.call('PUT', linkOf(active, REL.withdrawJob)), 403);
    const withdrawn = await owner.call('PUT', linkOf(active, REL.withdrawJob));
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.status).toBe('STOPPED');
    expectError(await owner.call('PUT', linkOf(active, REL.withdrawJob)), 403);
    const after = await refresh(pipeline);
    expect(hasLink(after, REL.withdrawJob)).toBe(false);
    expect(hasLink(after, REL.deletePipeline)).toBe(true);
  });

  it('withdraws a RUNNING job with 202: the stop is requested, the runner ends it STOPPED', async () => {
    const pipeline = await demoPipeline(owner, 'Stopped while running');
    const started = await owner.call('POST', linkOf(pipeline, REL.createJob));
    expect(await claim()).toBe(started.body.id);
    const running = await owner.get(`/api/jobs/${started.body.id}`);
    expect(running.body.status).toBe('RUNNING');
    const withdrawn = await owner.call('PUT', linkOf(running.body, REL.withdrawJob));
    expect(withdrawn.status).toBe(202);
    expect(withdrawn.body.status).toBe('RUNNING');
    const row = await world.server.db.selectFrom('jobs').select('stop_requested').where('id', '=', started.body.id).executeTakeFirstOrThrow();
    expect(row.stop_requested).toBe(true);
    await finishJob(world.server.db, started.body.id, RUNNER, { reason: 'WITHDRAWN', exitCode: null, lines: [], retryBaseMs: 0 });
    expect((await owner.get(`/api/jobs/${started.body.id}`)).body.status).toBe('STOPPED');
  });

  it('verifies a pipeline with a PIPELINE_VERIFY job (200)', async () => {
    const pipeline = await demoPipeline(owner, 'Verified');
    const verified = await owner.call('POST', linkOf(pipeline, REL.verifyPipeline));
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ type: 'PIPELINE_VERIFY', status: 'QUEUED' });
    await owner.call('PUT', `/api/jobs/${verified.body.id}/stopped`);
  });

  it('offers no create job for an incomplete pipeline and refuses it (403)', async () => {
    await givePostgresComponent(world);
    const workspace = await owner.get(`/api/workspaces/${DEMO.workspaceId}`);
    const draft = await owner.call('POST', linkOf(workspace.body, REL.newPipeline));
    const complete = await owner.call('PUT', linkOf(draft.body, REL.createPipeline), { name: 'Becomes incomplete', dataComponents: ['pg'], properties: { 'pg.user': 'u', 'pg.database': 'd' } });
    expect(complete.status).toBe(201);
    expect(hasLink(complete.body, REL.createJob)).toBe(true);
    // Its component loses nothing, but the pipeline's own properties are cleared behind its back.
    await world.server.db.updateTable('pipelines').set({ properties: '{}' }).where('id', '=', complete.body.id).execute();
    const incomplete = await refresh(complete.body);
    expect(hasLink(incomplete, REL.createJob)).toBe(false);
    expectError(await owner.call('POST', `/api/pipelines/${complete.body.id}/jobs`), 403);
  });

  it("refuses a plain member (403) and another workspace's admin (404, as for no such id) every run route", async () => {
    const pipeline = await demoPipeline(owner, 'Not theirs');
    for (const api of [world.member.api, world.outsider.api]) {
      // another workspace's admin is told nothing exists; a member, who sees the workspace, is refused
      const refused = api === world.outsider.api ? 404 : 403;
      expectError(await api.call('POST', linkOf(pipeline, REL.createJob)), refused);
      expectError(await api.call('POST', linkOf(pipeline, REL.verifyPipeline)), refused);
      expectError(await api.get(linkOf(pipeline, REL.jobs)), refused);
      expectError(await api.get(linkOf(pipeline, REL.metrics)), refused);
      expectError(await api.get(linkOf(pipeline, REL.environment)), refused);
      expectError(await api.call('POST', linkOf(pipeline, REL.addSubscription), { type: 'ALL' }), refused);
    }
  });
});

describe('the jobs link, logs and metrics', () => {
  it('pages the jobs 10 at a time with next and prev', async () => {
    const pipeline = await demoPipeline(owner, 'Many jobs');
    for (let i = 0; i < 12; i++) {
      const started = await owner.call('POST', linkOf(pipeline, REL.createJob));
      expect(started.status).toBe(201);
      expect((await owner.call('PUT', `/api/jobs/${started.body.id}/stopped`)).status).toBe(200);
    }
    const first = await owner.get(`${linkOf(pipeline, REL.jobs)}?size=10`);
    expect(jobsCollectionSchema.safeParse(first.body).success).toBe(true);
    expect(embedded(first.body, 'jobs')).toHaveLength(10);
    expect(first.body.page).toMatchObject({ totalElements: 12, totalPages: 2 });
    expect(hasLink(first.body, 'prev')).toBe(false);
    const second = await owner.get(linkOf(first.body, 'next'));
    expect(embedded(second.body, 'jobs')).toHaveLength(2);
    expect(hasLink(second.body, 'prev')).toBe(true);
    expect(hasLink(second.body, 'next')).toBe(false);
    expect(embedded(first.body, 'jobs').every((j: { status: string }) => j.status === 'STOPPED')).toBe(true);
  });

  it('resumes the log from a sequence, and reports metrics of the ended job', async () => {
    const pipeline = await demoPipeline(owner, 'Logged');
    const started = await owner.call('POST', linkOf(pipeline, REL.createJob));
    const jobId = await claim();
    await appendLogLines(world.server.db, jobId, ['one', 'two', 'three', 'four']);
    await world.server.db.updateTable('jobs').set({ rows_loaded: 42 }).where('id', '=', jobId).execute();
    await finish(jobId, 0);
    const job = (await owner.get(`/api/jobs/${started.body.id}`)).body;
    expect(job).toMatchObject({ status: 'COMPLETE', exitCode: 0, rowsLoaded: 42 });
    const response = await fetch(`${linkOf(job, REL.logs)}?sequence=2`, { headers: { authorization: `Bearer ${world.owner.token}`, accept: 'application/stream+json' } });
    const lines = (await response.text()).trim().split('\n').map((line) => logEntrySchema.parse(JSON.parse(line)));
    expect(lines.map((l) => l.message)).toEqual(['three', 'four', 'Job ended COMPLETE (exit code 0).']);
    const last = lines.at(-1)!.sequence;
    expect((await owner.raw('GET', `${linkOf(job, REL.logs)}?sequence=${last}`, undefined)).status).toBe(204);

    const metrics = await owner.get(linkOf(pipeline, REL.metrics));
    expect(metricsSchema.safeParse(metrics.body).success).toBe(true);
    expect(metrics.body.metrics[0]).toMatchObject({ jobId, status: 'COMPLETE', rowsLoaded: 42 });
    expect(metrics.body.metrics[0].duration).toEqual(expect.any(Number));
    expect(hasLink(job, REL.deleteJob)).toBe(true);
  });
});

describe('environment', () => {
  it('lists the variables by Meltano rule and never returns a sensitive value in clear', async () => {
    await givePostgresComponent(world);
    const workspace = await owner.get(`/api/workspaces/${DEMO.workspaceId}`);
    const draft = await owner.call('POST', linkOf(workspace.body, REL.newPipeline));
    const pipeline = await owner.call('PUT', linkOf(draft.body, REL.createPipeline), {
      name: 'With secrets',
      dataComponents: ['pg', 'loaders/target-store'],
      properties: { 'pg.user': 'ada', 'pg.database': 'shop', 'pg.password': 'hunter2', 'pg.port': 6543 },
    });
    expect(pipeline.status).toBe(201);
    const environment = await owner.get(linkOf(pipeline.body, REL.environment));
    expect(environment.status).toBe(200);
    expect(environmentSchema.safeParse(environment.body).success).toBe(true);
    expect(environment.body.variables).toMatchObject({
      PG_USER: { value: 'ada', sensitive: false },
      PG_PORT: { value: '6543', sensitive: false },
      PG_PASSWORD: { value: MASK, sensitive: true },
    });
    expect(JSON.stringify(environment.body)).not.toContain('hunter2');
    expect(JSON.stringify(pipeline.body)).not.toContain('hunter2');
  });
});

describe('subscriptions and notifications', () => {
  const notificationsOf = (jobId: string) => world.server.db.selectFrom('notifications').select(['type', 'message']).where('profile_id', '=', world.owner.subject).where('job_id', '=', jobId).orderBy('created').execute();

  it('adds and deletes a subscription, the links telling which', async () => {
    const pipeline = await demoPipeline(owner, 'Watched');
    expectError(await owner.call('POST', linkOf(pipeline, REL.addSubscription), { type: 'NONE' }), 400, { type: /./ });
    const added = await owner.call('POST', linkOf(pipeline, REL.addSubscription), { type: 'ALERTS' });
    expect(added.status).toBe(201);
    expect(added.body.type).toBe('ALERTS');
    const watched = await refresh(pipeline);
    expect(hasLink(watched, REL.addSubscription)).toBe(false);
    expect(hasLink(watched, REL.deleteSubscription)).toBe(true);
    expectError(await owner.call('POST', linkOf(pipeline, REL.addSubscription), { type: 'ALL' }), 403);
    expect((await owner.raw('DELETE', linkOf(watched, REL.deleteSubscription), undefined)).status).toBe(204);
    const unwatched = await refresh(pipeline);
    expect(hasLink(unwatched, REL.addSubscription)).toBe(true);
    expectError(await owner.call('DELETE', linkOf(watched, REL.deleteSubscription)), 403);
  });

  it('tells ALL subscribers every job event, ALERTS subscribers only ERROR and STOPPED', async () => {
    const all = await demoPipeline(owner, 'Watched closely');
    const alerts = await demoPipeline(owner, 'Watched for errors');
    await owner.call('POST', linkOf(all, REL.addSubscription), { type: 'ALL' });
    await owner.call('POST', linkOf(alerts, REL.addSubscription), { type: 'ALERTS' });

    await owner.call('POST', linkOf(all, REL.createJob));
    const allJob = await claim();
    await finish(allJob, 0);
    expect((await notificationsOf(allJob)).map((n) => n.type)).toEqual(['JOB_STARTED', 'JOB_ENDED']);

    await owner.call('POST', linkOf(alerts, REL.createJob));
    const fine = await claim();
    await finish(fine, 0);
    expect(await notificationsOf(fine)).toEqual([]);
    await owner.call('POST', linkOf(alerts, REL.createJob));
    const failing = await claim();
    await finish(failing, 1);
    const alerted = await notificationsOf(failing);
    expect(alerted).toEqual([{ type: 'JOB_ENDED', message: 'Job of Watched for errors ended ERROR.' }]);
    const stopped = await owner.call('POST', linkOf(alerts, REL.createJob));
    await owner.call('PUT', `/api/jobs/${stopped.body.id}/stopped`);
    expect((await notificationsOf(stopped.body.id)).map((n) => n.type)).toEqual(['JOB_ENDED']);
  });

  it('tells ALL subscribers what others do to the pipeline (PIPELINE_ACTIVITY), not the one who did it', async () => {
    const pipeline = await demoPipeline(owner, 'Shared pipeline');
    // The member becomes an editor, watches everything, and sees the owner's changes.
    await world.server.db.updateTable('workspace_members').set({ role: 'editor' }).where('workspace_id', '=', DEMO.workspaceId).where('profile_id', '=', world.member.subject).execute();
    try {
      const seen = await world.member.api.get(linkOf(pipeline, REL.self));
      expect((await world.member.api.call('POST', linkOf(seen.body, REL.addSubscription), { type: 'ALL' })).status).toBe(201);
      await owner.call('PUT', linkOf(pipeline, REL.updatePipeline), { name: 'Shared pipeline', dataComponents: ['tap-demo', 'target-store'], script: 'echo changed' });
      const started = await owner.call('POST', linkOf(pipeline, REL.createJob));
      await owner.call('PUT', `/api/jobs/${started.body.id}/stopped`);
      const rows = await world.server.db.selectFrom('notifications').select(['type', 'message', 'profile_id']).where('type', '=', 'PIPELINE_ACTIVITY').where('message', 'like', '%Shared pipeline%').orderBy('created').execute();
      expect(rows.map((r) => r.profile_id)).toEqual([world.member.subject, world.member.subject]);
      expect(rows.map((r) => r.message)).toEqual([`${DEMO.owner.name} saved pipeline Shared pipeline.`, `${DEMO.owner.name} queued a job of Shared pipeline.`]);
    } finally {
      await world.server.db.updateTable('workspace_members').set({ role: 'member' }).where('workspace_id', '=', DEMO.workspaceId).where('profile_id', '=', world.member.subject).execute();
    }
  });
});
