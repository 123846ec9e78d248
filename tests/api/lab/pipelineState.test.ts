import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../../src/domain/relations';
import { pipelineStateSchema } from '../../../src/domain/resources';
import { claimNextJob, finishJob } from '../../../server/runner/queue';
import { expectError, hasLink, linkOf, type ApiClient } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { demoPipeline, outsiderWorkspace, type Body } from './labWorld';

// A pipeline's incremental state through its links (issue 37): where the next run resumes, and the
// Full refresh that clears it. No runner runs here: the test writes states as the runner does
// (pipeline_states) and plays a running job with the queue's own functions.

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

const MELTANO_STATE = {
  completed: { singer_state: { bookmarks: { orders: { replication_key: 'updated_at', replication_key_value: '2026-11-01T00:00:00Z' }, customers: { replication_key: 'id', replication_key_value: 40 } } } },
  partial: { singer_state: { bookmarks: { customers: { replication_key: 'id', replication_key_value: 57 } } } },
};

async function keepState(pipelineId: string, stateId: string, value: Record<string, unknown>): Promise<void> {
  await world.server.db.insertInto('pipeline_states').values({ pipeline_id: pipelineId, state_id: stateId, value: JSON.stringify(value), updated: new Date('2026-11-28T10:00:00Z') }).execute();
}

const stateOf = async (pipeline: Body) => {
  const answer = await owner.get(linkOf(pipeline, REL.state));
  expect(answer.status).toBe(200);
  const parsed = pipelineStateSchema.safeParse(answer.body);
  expect(parsed.success).toBe(true);
  return answer.body as Body;
};

describe('the state of a pipeline', () => {
  it('shows no bookmark before a run, then each state id with its streams where the next run resumes', async () => {
    const pipeline = await demoPipeline(owner, 'Resumes from bookmarks');
    const other = await demoPipeline(owner, 'Has a state of its own');
    expect((await stateOf(pipeline)).states).toEqual([]);

    await keepState(pipeline.id, 'dev:tap-github-to-target-postgres', MELTANO_STATE);
    await keepState(pipeline.id, 'tap-demo', { bookmarks: { sales: { modified: '2026-11-20' } } });
    await keepState(other.id, 'tap-demo', { bookmarks: { theirs: { modified: 'x' } } });

    const state = await stateOf(pipeline);
    expect(state.states).toEqual([
      {
        stateId: 'dev:tap-github-to-target-postgres',
        updated: '2026-11-28T10:00:00.000Z',
        bookmarks: [
          { stream: 'customers', position: 'id ≥ 57' },
          { stream: 'orders', position: 'updated_at ≥ 2026-11-01T00:00:00Z' },
        ],
      },
      { stateId: 'tap-demo', updated: '2026-11-28T10:00:00.000Z', bookmarks: [{ stream: 'sales', position: 'modified = 2026-11-20' }] },
    ]);
    expect(linkOf(state, REL.fullRefresh)).toBe(linkOf(pipeline, REL.fullRefresh));
  });

  it('full refresh clears every state of the pipeline and only its own (204), and clearing again is harmless', async () => {
    const pipeline = await demoPipeline(owner, 'Loads everything again');
    const other = await demoPipeline(owner, 'Keeps its bookmark');
    await keepState(pipeline.id, 'tap-demo', { bookmarks: { sales: { modified: '2026-11-20' } } });
    await keepState(other.id, 'tap-demo', { bookmarks: { sales: { modified: '2026-11-21' } } });

    const cleared = await owner.call('DELETE', linkOf(pipeline, REL.fullRefresh));
    expect(cleared.status).toBe(204);
    expect((await stateOf(pipeline)).states).toEqual([]);
    expect((await stateOf(other)).states).toHaveLength(1);
    expect((await owner.call('DELETE', linkOf(pipeline, REL.fullRefresh))).status).toBe(204);
  });

  it('refuses a full refresh while a job is queued or running (409), and keeps the state', async () => {
    const pipeline = await demoPipeline(owner, 'Runs while asked to refresh');
    await keepState(pipeline.id, 'tap-demo', { bookmarks: { sales: { modified: '2026-11-20' } } });
    expect((await owner.call('POST', linkOf(pipeline, REL.createJob))).status).toBe(201);
    expectError(await owner.call('DELETE', linkOf(pipeline, REL.fullRefresh)), 409);
    const job = await claimNextJob(world.server.db, RUNNER, 60_000);
    expect(job?.pipeline_id).toBe(pipeline.id);
    expectError(await owner.call('DELETE', linkOf(pipeline, REL.fullRefresh)), 409);
    expect((await stateOf(pipeline)).states).toHaveLength(1);
    await finishJob(world.server.db, job!.id, RUNNER, { reason: 'EXITED', exitCode: 0, lines: [], retryBaseMs: 0 });
    expect((await owner.call('DELETE', linkOf(pipeline, REL.fullRefresh))).status).toBe(204);
    expect((await stateOf(pipeline)).states).toEqual([]);
  });

  it("is an admin's: a member gets no link and a 403, another workspace's admin a 404, and neither clears it", async () => {
    const pipeline = await demoPipeline(owner, 'Not theirs to reset');
    await keepState(pipeline.id, 'tap-demo', { bookmarks: { sales: { modified: '2026-11-20' } } });
    const asMember = (await world.member.api.get(`/api/pipelines/${pipeline.id}`)).body as Body;
    expect(hasLink(asMember, REL.state)).toBe(false);
    expect(hasLink(asMember, REL.fullRefresh)).toBe(false);
    for (const [api, refused] of [
      [world.member.api, 403],
      [world.outsider.api, 404],
    ] as const) {
      expectError(await api.get(linkOf(pipeline, REL.state)), refused);
      expectError(await api.call('DELETE', linkOf(pipeline, REL.fullRefresh)), refused);
    }
    expect((await stateOf(pipeline)).states).toHaveLength(1);
  });

  it('answers 404 for a pipeline id that names nothing, and for one that is not an id', async () => {
    expectError(await owner.get('/api/pipelines/00000000-0000-4000-8000-000000000000/state'), 404);
    expectError(await owner.call('DELETE', '/api/pipelines/not-an-id/state'), 404);
  });
});
