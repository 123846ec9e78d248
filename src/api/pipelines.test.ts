import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../domain/hostile.fixture';
import { createApiClient } from './client';
import { ApiFailure } from './errors';
import { downloadLogText, logFileName, parseLogBody, readLogPage } from './logs';
import {
  listPipelineJobs,
  listPipelines,
  listPipelinesForGraph,
  pipelineEnvironment,
  pipelineMetrics,
  pipelinesOf,
  startJob,
  stopJob,
  turnJobsPage,
  unwatchPipeline,
  watchPipeline,
} from './pipelines';
import { fakeFetch, type FakeReply } from './testing/fakeFetch';

const BASE = 'http://api.test/api';
const workspace = { id: 'w1', _links: { pipelines: { href: `${BASE}/workspaces/w1/pipelines` } } };
const pipeline = {
  id: 'p1',
  _links: {
    self: { href: `${BASE}/pipelines/p1` },
    'create job': { href: `${BASE}/pipelines/p1/jobs` },
    'withdraw job': { href: `${BASE}/pipelines/p1/jobs/active/stopped` },
    jobs: { href: `${BASE}/pipelines/p1/jobs` },
    metrics: { href: `${BASE}/pipelines/p1/metrics` },
    environment: { href: `${BASE}/pipelines/p1/environment` },
    'add subscription': { href: `${BASE}/pipelines/p1/subscriptions` },
    'delete subscription': { href: `${BASE}/subscriptions/s1` },
  },
};
const job = { id: 'j1', type: 'PIPELINE_RUN', status: 'QUEUED', created: '2026-01-01T00:00:00Z', _links: { logs: { href: `${BASE}/jobs/j1/logs` } } };
const ndjson = (body: string): FakeReply => ({ body, headers: { 'content-type': 'application/stream+json' } });
const entry = (n: number, message = `m${String(n)}`) => JSON.stringify({ sequence: n, timestamp: '2026-01-01T00:00:00Z', message });

function api(...replies: FakeReply[]) {
  const fake = fakeFetch(...replies);
  const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
  return { client, calls: fake.calls };
}

describe('pipelines', () => {
  it('lists through the workspace link with page, size and a trimmed search', async () => {
    const { client, calls } = api({ body: { _embedded: { pipelines: [{ id: 'p1', name: 'Orders' }] }, page: { size: 20, totalElements: 1, totalPages: 1, number: 0 } } });
    const page = await listPipelines(client, workspace, { page: 0, search: ' ord ' });
    expect(pipelinesOf(page).map((p) => p.name)).toEqual(['Orders']);
    expect(calls[0]?.url).toBe(`${BASE}/workspaces/w1/pipelines?page=0&size=20&search=ord`);
  });

  it('the trigger graph reads the first 200 pipelines, unsearched, in one call', async () => {
    const { client, calls } = api({ body: { _embedded: { pipelines: [] }, page: { size: 200, totalElements: 0, totalPages: 0, number: 0 } } });
    await listPipelinesForGraph(client, workspace);
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/workspaces/w1/pipelines?page=0&size=200`]);
  });

  it('starts once (no retry of the POST), stops with PUT, watches and unwatches', async () => {
    const { client, calls } = api({ status: 503, body: { message: 'busy' } }, { body: undefined, status: 200 }, { status: 201 }, { status: 204 });
    await expect(startJob(client, pipeline)).rejects.toBeInstanceOf(ApiFailure);
    await stopJob(client, pipeline);
    await watchPipeline(client, pipeline, 'ALERTS');
    await unwatchPipeline(client, pipeline);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST ${BASE}/pipelines/p1/jobs`,
      `PUT ${BASE}/pipelines/p1/jobs/active/stopped`,
      `POST ${BASE}/pipelines/p1/subscriptions`,
      `DELETE ${BASE}/subscriptions/s1`,
    ]);
    expect(calls[2]?.body).toEqual({ type: 'ALERTS' });
  });

  it('a missing link is a missingLink failure, no request', async () => {
    const { client, calls } = api();
    await expect(startJob(client, { _links: {} })).rejects.toMatchObject({ apiError: { kind: 'missingLink', rel: 'create job' } });
    expect(calls).toHaveLength(0);
  });

  it('reads jobs ?size=10 and turns pages by their links; metrics; environment', async () => {
    const jobsPage = { _embedded: { jobs: [job] }, _links: { next: { href: `${BASE}/pipelines/p1/jobs?page=1&size=10` } } };
    const { client, calls } = api(
      { body: jobsPage },
      { body: { _embedded: { jobs: [] } } },
      { body: { metrics: [{ jobId: 'j1', status: 'COMPLETE', created: '2026-01-01T00:00:00Z', rowsLoaded: 7 }] } },
      { body: { variables: { TAP_X_PASSWORD: { value: '***', sensitive: true } } } },
    );
    const first = await listPipelineJobs(client, pipeline);
    await turnJobsPage(client, first, 'next');
    expect((await pipelineMetrics(client, pipeline))[0]?.rowsLoaded).toBe(7);
    expect((await pipelineEnvironment(client, pipeline)).variables['TAP_X_PASSWORD']?.value).toBe('***');
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/pipelines/p1/jobs?size=10`, `${BASE}/pipelines/p1/jobs?page=1&size=10`, `${BASE}/pipelines/p1/metrics`, `${BASE}/pipelines/p1/environment`]);
  });
});

describe('logs', () => {
  it('asks for NDJSON after a sequence and reads several lines, one line, or nothing', async () => {
    const { client, calls } = api(ndjson(`${entry(3)}\n${entry(4)}\n`), ndjson(`${entry(5)}\n`), { status: 204 });
    expect((await readLogPage(client, job, { sequence: 2 })).map((l) => l.sequence)).toEqual([3, 4]);
    expect((await readLogPage(client, job, { sequence: 4, size: 50 })).map((l) => l.sequence)).toEqual([5]);
    expect(await readLogPage(client, job, { sequence: 5 })).toEqual([]);
    expect(calls[0]?.headers.get('accept')).toBe('application/stream+json');
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/jobs/j1/logs?sequence=2`, `${BASE}/jobs/j1/logs?sequence=4&size=50`, `${BASE}/jobs/j1/logs?sequence=5`]);
  });

  it('a malformed line is a parse failure', async () => {
    const { client } = api(ndjson(`${entry(1)}\n{"sequence":"x"}\n`));
    await expect(readLogPage(client, job, { sequence: 0 })).rejects.toMatchObject({ apiError: { kind: 'parse' } });
    expect(() => parseLogBody('not json\n')).toThrow(ApiFailure);
  });

  it('parseLogBody either returns entries or throws an ApiFailure, for any text', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        try {
          for (const line of parseLogBody(text)) expect(typeof line.sequence).toBe('number');
        } catch (error) {
          expect(error).toBeInstanceOf(ApiFailure);
        }
      }),
    );
  });

  it('downloads the whole log page by page as text', async () => {
    const { client, calls } = api(ndjson(`${entry(1, 'a')}\n${entry(2, 'b')}\n`));
    expect(await downloadLogText(client, job)).toBe('2026-01-01T00:00:00Z a\n2026-01-01T00:00:00Z b\n');
    expect(calls[0]?.url).toBe(`${BASE}/jobs/j1/logs?sequence=0&size=10000`);
    expect(logFileName('j1')).toBe('j1.txt');
    expect(logFileName('../x')).toBe('.._x.txt');
  });
});
