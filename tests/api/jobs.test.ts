import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { jobSchema, logEntrySchema } from '../../src/domain/resources';
import { DEMO } from '../../server/seed';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { makePipeline, runLoad } from './helpers/storeLoads';
import { login, startWorld, type World } from './helpers/world';

let world: World;
let finishedJob: string;
let runningJob: string;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  const db = world.server.db;
  // A finished job with a five-line log, and one still running.
  finishedJob = randomUUID();
  runningJob = randomUUID();
  await db
    .insertInto('jobs')
    .values([
      { id: finishedJob, workspace_id: DEMO.workspaceId, type: 'PIPELINE_RUN', status: 'ERROR', attempt: 1, max_attempts: 1, created: new Date(Date.now() - 60_000) },
      { id: runningJob, workspace_id: DEMO.workspaceId, type: 'PIPELINE_RUN', status: 'RUNNING', attempt: 1, max_attempts: 1, created: new Date() },
    ])
    .execute();
  await db
    .insertInto('job_logs')
    .values(['starting', 'extracting', 'a line with "quotes"', 'loading', 'failed: exit 1'].map((message, i) => ({ job_id: finishedJob, sequence: i + 1, message })))
    .execute();
});
afterAll(() => world?.close());

const jobsOf = (query = '') => `/api/workspaces/${DEMO.workspaceId}/jobs${query}`;

describe('GET /api/workspaces/{id}/jobs?status=', () => {
  it('counts the active jobs on the server: page.totalElements of QUEUED and RUNNING', async () => {
    const active = await world.owner.api.get(jobsOf('?status=QUEUED,RUNNING&size=1'));
    expect(active.status).toBe(200);
    expect(active.body.page.totalElements).toBe(1);
    expect(embedded(active.body, 'jobs').map((j: { id: string }) => j.id)).toEqual([runningJob]);
    const all = await world.owner.api.get(jobsOf('?size=1'));
    expect(all.body.page.totalElements).toBeGreaterThan(1);
  });

  it('refuses an unknown status with a field error', async () => {
    expectError(await world.owner.api.get(jobsOf('?status=RUNNING,NAPPING')), 400, { status: /QUEUED/ });
  });
});

describe('rows per stream', () => {
  const schema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } } };
  const records = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `row ${from + i}` }));

  it('carries the rows a run loaded per stream, summing to rowsLoaded, in the job body and every list of jobs', async () => {
    const pipelineId = await makePipeline(world, 'Rows per stream');
    // a stream loaded in two batches, and names a JavaScript object or a SQL string would trip on
    const jobId = await runLoad(world, pipelineId, [
      { stream: 'rbs_orders', schema, key: ['id'], records: records(1, 3) },
      { stream: '__proto__', schema, key: ['id'], records: records(1, 1) },
      { stream: 'rbs_orders', schema, key: ['id'], records: records(4, 2) },
      { stream: "Ventes d'été \"q\"", schema, key: ['id'], records: records(1, 2) },
    ]);
    const expected = Object.fromEntries([['rbs_orders', 5], ['__proto__', 1], ["Ventes d'été \"q\"", 2]]);
    const answer = await world.owner.api.get(`/api/jobs/${jobId}`);
    expect(answer.status).toBe(200);
    expect(answer.body.rowsLoaded).toBe(8);
    expect(answer.body.rowsByStream).toEqual(expected);
    expect(Object.values(answer.body.rowsByStream as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(answer.body.rowsLoaded);
    expect(jobSchema.safeParse(answer.body).success).toBe(true);
    const listed = embedded((await world.owner.api.get(`/api/pipelines/${pipelineId}/jobs`)).body, 'jobs').find((j: { id: string }) => j.id === jobId);
    expect(listed.rowsByStream).toEqual(expected);
    const inWorkspace = embedded((await world.owner.api.get(jobsOf('?size=100'))).body, 'jobs').find((j: { id: string }) => j.id === jobId);
    expect(inWorkspace.rowsByStream).toEqual(expected);
  });

  it('is empty for a job that loaded nothing', async () => {
    expect((await world.owner.api.get(`/api/jobs/${finishedJob}`)).body).toMatchObject({ rowsLoaded: 0, rowsByStream: {} });
  });
});

describe('GET /api/jobs/{id}', () => {
  it('answers the job with its links to an admin', async () => {
    const answer = await world.owner.api.get(`/api/jobs/${finishedJob}`);
    expect(answer.status).toBe(200);
    expect(jobSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toMatchObject({ id: finishedJob, status: 'ERROR', type: 'PIPELINE_RUN' });
    expect(linkOf(answer.body, REL.self)).toBe(`${world.baseUrl}/api/jobs/${finishedJob}`);
    expect(linkOf(answer.body, REL.logs)).toBe(`${world.baseUrl}/api/jobs/${finishedJob}/logs`);
    expect(hasLink(answer.body, REL.deleteJob)).toBe(true);
  });

  it('offers no delete job while the job is running', async () => {
    const answer = await world.owner.api.get(`/api/jobs/${runningJob}`);
    expect(hasLink(answer.body, REL.deleteJob)).toBe(false);
    expectError(await world.owner.api.call('DELETE', `/api/jobs/${runningJob}`), 403);
  });

  it('refuses a plain member (403), a stranger (404, as for no such id), an unknown id (404) and no token (401)', async () => {
    expectError(await world.member.api.get(`/api/jobs/${finishedJob}`), 403);
    expectError(await world.outsider.api.get(`/api/jobs/${finishedJob}`), 404);
    expectError(await world.owner.api.get(`/api/jobs/${randomUUID()}`), 404);
    expectError(await world.anonymous.get(`/api/jobs/${finishedJob}`), 401);
  });
});

describe('GET /api/jobs/{id}/logs', () => {
  const logs = (query = '') => `/api/jobs/${finishedJob}/logs${query}`;

  it('answers newline-delimited JSON after the given sequence', async () => {
    const ndjson = await fetch(new URL(logs('?sequence=2'), world.baseUrl), {
      headers: { authorization: `Bearer ${world.owner.token}`, accept: 'application/stream+json' },
    });
    expect(ndjson.headers.get('content-type')).toMatch(/application\/stream\+json/);
    const lines = (await ndjson.text()).trim().split('\n').map((line) => logEntrySchema.parse(JSON.parse(line)));
    expect(lines.map((l) => l.sequence)).toEqual([3, 4, 5]);
    expect(lines[0]?.message).toBe('a line with "quotes"');
  });

  it('answers text by default, pages with size, and 204 when nothing is new', async () => {
    const text = await world.owner.api.raw('GET', logs('?size=2'), undefined);
    expect(text.headers.get('content-type')).toMatch(/text\/plain/);
    expect(await text.text()).toBe('starting\nextracting\n');
    const none = await world.owner.api.raw('GET', logs('?sequence=5'), undefined);
    expect(none.status).toBe(204);
  });

  it('offers the log as a download named after the job', async () => {
    const download = await world.owner.api.raw('GET', logs('?download=true'), undefined);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${finishedJob}.txt"`);
  });

  it('refuses a bad sequence (400), a plain member (403) and no token (401)', async () => {
    expectError(await world.owner.api.get(logs('?sequence=-1')), 400, { sequence: /./ });
    expectError(await world.owner.api.get(logs('?sequence=abc')), 400, { sequence: /number/ });
    expectError(await world.member.api.get(logs()), 403);
    expectError(await world.anonymous.get(logs()), 401);
  });
});

describe('DELETE /api/jobs/{id}', () => {
  it('clears a finished job and its log (204), then it is gone (404)', async () => {
    expectError(await world.member.api.call('DELETE', `/api/jobs/${finishedJob}`), 403);
    const answer = await world.owner.api.raw('DELETE', `/api/jobs/${finishedJob}`, undefined);
    expect(answer.status).toBe(204);
    expectError(await world.owner.api.get(`/api/jobs/${finishedJob}`), 404);
    const lines = await world.server.db.selectFrom('job_logs').select('sequence').where('job_id', '=', finishedJob).execute();
    expect(lines).toEqual([]);
  });
});
