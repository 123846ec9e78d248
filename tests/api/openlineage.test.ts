import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenLineageSender, senderSettings } from '../../server/openLineage/sender';
import { claimNextJob, finishJob } from '../../server/runner/queue';
import { DEMO } from '../../server/seed';
import { openLineageEventsSchema, type OpenLineageEventItem } from '../../src/domain/openLineageResources';
import { REL } from '../../src/domain/relations';
import { openLineageErrors } from '../fixtures/openlineage/validate';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { makePipeline, runLoad, type StreamLoad } from './helpers/storeLoads';
import { login, startWorld, type World } from './helpers/world';
import { outsiderWorkspace } from './lab/labWorld';

// OpenLineage out (issue 41, item 4), end to end: pipeline runs and a dataset publish through the
// real server, the sender delivering to a collector on a local HTTP endpoint (the spec's HTTP
// transport: POST of JSON with a Bearer API key), every event received validated against the
// published schema (tests/fixtures/openlineage); retries without duplicates; a job never held up by
// a collector that is down; and the events read back through the workspace's 'lineage events' link.

const W = DEMO.workspaceId;
const API_KEY = 'collector-key-7f3a';

interface Received {
  authorization: string | undefined;
  contentType: string | undefined;
  body: Event;
}

/** An event as received: read loosely, asserted field by field (and validated against the schema). */
interface Event {
  eventType?: string;
  run?: { runId?: string; facets?: Record<string, Record<string, unknown>> };
  job?: { name?: string; facets?: Record<string, Record<string, unknown>> };
  inputs?: unknown[];
  outputs?: Record<string, unknown>[];
}

/** A collector: records what it accepts; `failNext` answers 503 to that many requests first, `hang` never answers. */
class Collector {
  readonly received: Received[] = [];
  failNext = 0;
  hang = false;
  requests = 0;
  private readonly server = http.createServer((request, response) => {
    this.requests++;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (this.hang) return; // the sender's timeout ends it
      if (this.failNext > 0) {
        this.failNext--;
        response.writeHead(503).end();
        return;
      }
      this.received.push({ authorization: request.headers.authorization, contentType: request.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      response.writeHead(201).end();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1/lineage`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The events received of this run, in arrival order. */
  ofRun(jobId: string): Event[] {
    return this.received.map((r) => r.body).filter((e) => e.run?.runId === jobId);
  }
}

const ORDERS: StreamLoad = {
  stream: 'orders',
  key: ['id'],
  schema: { type: 'object', properties: { id: { type: ['integer'] }, customer_id: { type: ['integer'] }, amount: { type: ['number'] } } },
  records: [
    { id: 1, customer_id: 1, amount: 10 },
    { id: 2, customer_id: 2, amount: 5.5 },
    { id: 3, customer_id: 1, amount: 2 },
  ],
};

let world: World;
let collector: Collector;
let sender: OpenLineageSender;
let pipelineId: string;
let pipelineName: string;
let completeJob: string;
let ordersTable: string;

/** Sends until nothing is due or waiting for a retry (the retry delay is 20 ms here). */
async function drain(with_: OpenLineageSender = sender): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const handled = await with_.sendDue();
    if (handled > 0) continue;
    const { rows } = await sql<{ n: string | number }>`SELECT count(*) AS n FROM openlineage_events WHERE status = 'PENDING'`.execute(world.server.db);
    const waiting = Number(rows[0]?.n ?? 0);
    if (waiting === 0) return;
    if (Date.now() > deadline) throw new Error(`${waiting} OpenLineage events still pending`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function eventsAs(who: 'owner'): Promise<OpenLineageEventItem[]> {
  const workspace = await world[who].api.get(`/api/workspaces/${W}`);
  const answer = await world[who].api.get(linkOf(workspace.body, REL.lineageEvents));
  expect(answer.status).toBe(200);
  return embedded(openLineageEventsSchema.parse(answer.body), 'events') as OpenLineageEventItem[];
}

beforeAll(async () => {
  collector = new Collector();
  const url = await collector.listen();
  // the operator's configuration: the collector's URL and key; a short timeout and retry delay for the test
  world = await startWorld({ env: { OPENLINEAGE_URL: url, OPENLINEAGE_API_KEY: API_KEY, OPENLINEAGE_TIMEOUT_MS: '500', OPENLINEAGE_RETRY_BASE_MS: '20', OPENLINEAGE_MAX_ATTEMPTS: '4' } });
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
  sender = new OpenLineageSender({ db: world.server.db, log: world.server.server.app.log, settings: senderSettings(world.server.config, 20) });
  pipelineName = 'Lineage out shop';
  pipelineId = await makePipeline(world, pipelineName);
}, 120_000);

afterAll(async () => {
  await sender?.stop();
  await world?.close();
  await collector?.close();
});

describe('a pipeline run', () => {
  it('ends COMPLETE while the collector does not answer: the job is never held up by it', async () => {
    collector.hang = true;
    // a sender that keeps trying while the run goes on (as many attempts as it takes)
    const patient = new OpenLineageSender({ db: world.server.db, log: world.server.server.app.log, settings: { ...senderSettings(world.server.config, 20), maxAttempts: 1_000 } });
    patient.start();
    const started = Date.now();
    completeJob = await runLoad(world, pipelineId, [ORDERS]);
    const job = await world.owner.api.get(`/api/jobs/${completeJob}`);
    expect(job.body.status).toBe('COMPLETE');
    expect(Date.now() - started).toBeLessThan(10_000);
    await patient.stop();
    expect(collector.requests).toBeGreaterThan(0);
    // nothing was accepted meanwhile; the events wait for the collector, saying why
    expect(collector.ofRun(completeJob)).toEqual([]);
    const waiting = (await eventsAs('owner')).filter((e) => e.subjectId === completeJob);
    expect(waiting.map((e) => e.delivery)).toEqual(['PENDING', 'PENDING']);
    expect(waiting.find((e) => e.eventType === 'START')).toMatchObject({ lastError: 'The collector did not answer within 500 ms.' });
    collector.hang = false;
    await drain();
    const loads = await world.server.db.selectFrom('store_loads').select('table_name').where('job_id', '=', completeJob).execute();
    ordersTable = loads.map((l) => l.table_name).find((t) => t.endsWith('orders'))!;
    expect(ordersTable).toBeDefined();
  });

  it('emits START then COMPLETE to the endpoint with the API key, each valid against the published schema', () => {
    const events = collector.ofRun(completeJob);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
    for (const event of events) expect(openLineageErrors(event)).toEqual([]);
    const requests = collector.received.filter((r) => r.body.run?.runId === completeJob);
    for (const request of requests) {
      expect(request.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.contentType).toBe('application/json');
    }
    const [start, complete] = events;
    expect(start).toMatchObject({ job: { namespace: `workspace/${W}`, name: pipelineName }, outputs: [] });
    expect(complete!.inputs).toEqual([{ namespace: `workspace/${W}/extractors/tap-demo`, name: 'orders' }]);
    expect(complete!.outputs).toEqual([
      {
        namespace: `workspace/${W}/store`,
        name: ordersTable,
        facets: {
          schema: expect.objectContaining({
            fields: expect.arrayContaining([expect.objectContaining({ name: 'id' }), expect.objectContaining({ name: 'customer_id' }), expect.objectContaining({ name: 'amount', type: expect.any(String) })]),
          }),
        },
        outputFacets: { outputStatistics: expect.objectContaining({ rowCount: 3 }) },
      },
    ]);
  });

  it('emits FAIL, with the error, for a run that fails', async () => {
    const failed = await runLoad(world, pipelineId, [ORDERS], 1);
    await drain();
    const events = collector.ofRun(failed);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'FAIL']);
    for (const event of events) expect(openLineageErrors(event)).toEqual([]);
    expect(events[1]!.run?.facets?.['errorMessage']?.['message']).toContain('exit code 1');
  });

  it('emits ABORT for a run that was stopped', async () => {
    const started = await world.owner.api.call('POST', `/api/pipelines/${pipelineId}/jobs`);
    expect(started.status).toBe(201);
    const job = await claimNextJob(world.server.db, 'openlineage-test-runner', 60_000);
    expect(job?.id).toBe(started.body.id);
    await world.server.db.updateTable('jobs').set({ stop_requested: true }).where('id', '=', job!.id).execute();
    await finishJob(world.server.db, job!.id, 'openlineage-test-runner', { reason: 'EXITED', exitCode: 143, lines: [], retryBaseMs: 0 });
    await drain();
    const events = collector.ofRun(job!.id);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'ABORT']);
    for (const event of events) expect(openLineageErrors(event)).toEqual([]);
  });
});

describe('a dataset publish', () => {
  it("emits a job event of its query: the sql facet, the tables it reads and the dataset's column lineage", async () => {
    const query = `SELECT customer_id, sum(amount) AS total FROM ${ordersTable} GROUP BY customer_id`;
    const published = await world.owner.api.call('POST', `/api/workspaces/${W}/datasets`, { title: 'Totals out', alias: 'totals-out', query });
    expect(published.status).toBe(201);
    await drain();
    const events = collector.received.map((r) => r.body).filter((e) => e.job?.name === 'dataset.totals-out');
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(openLineageErrors(event)).toEqual([]);
    expect(event).not.toHaveProperty('run');
    expect(event!.job?.facets?.['sql']).toMatchObject({ query, dialect: 'postgres' });
    expect(event!.inputs).toEqual([expect.objectContaining({ namespace: `workspace/${W}/store`, name: ordersTable })]);
    expect(event!.outputs?.[0]).toMatchObject({
      namespace: `workspace/${W}/datasets`,
      name: 'totals-out',
      facets: {
        columnLineage: {
          fields: {
            customer_id: { inputFields: [{ name: ordersTable, field: 'customer_id', transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }] }] },
            total: { inputFields: [{ name: ordersTable, field: 'amount', transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION' }] }] },
          },
        },
      },
    });
  });
  it('emits it again when an edit changes the query, and not for an edit that leaves it', async () => {
    const [dataset] = await world.server.db.selectFrom('datasets').select('id').where('alias', '=', 'totals-out').execute();
    const query = `SELECT customer_id, max(amount) AS largest FROM ${ordersTable} GROUP BY customer_id`;
    expect((await world.owner.api.call('PATCH', `/api/datasets/${dataset!.id}`, { query })).status).toBe(200);
    expect((await world.owner.api.call('PATCH', `/api/datasets/${dataset!.id}`, { description: 'Largest order per customer' })).status).toBe(200);
    await drain();
    const events = collector.received.map((r) => r.body).filter((e) => e.job?.name === 'dataset.totals-out');
    expect(events).toHaveLength(2);
    expect(openLineageErrors(events[1])).toEqual([]);
    expect(events[1]!.job?.facets?.['sql']).toMatchObject({ query });
    expect(events[1]!.outputs?.[0]).toMatchObject({ facets: { columnLineage: { fields: { largest: { inputFields: [{ field: 'amount', transformations: [{ subtype: 'AGGREGATION' }] }] } } } } });
  });
});

describe('delivery', () => {
  it('retries an event the collector refused twice and delivers it once; two senders never send one event twice', async () => {
    const before = collector.received.length;
    collector.failNext = 2;
    const job = await runLoad(world, pipelineId, [ORDERS]);
    const other = new OpenLineageSender({ db: world.server.db, log: world.server.server.app.log, settings: senderSettings(world.server.config, 20) });
    await Promise.all([drain(sender), drain(other)]);
    const events = collector.ofRun(job);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
    expect(collector.received.length - before).toBe(2);
    const listed = (await eventsAs('owner')).filter((e) => e.subjectId === job);
    expect(listed.map((e) => [e.eventType, e.delivery])).toEqual([
      ['COMPLETE', 'SENT'],
      ['START', 'SENT'],
    ]);
    // START waited out the two refusals (3 attempts), COMPLETE went out after it on its first
    expect(listed.map((e) => e.attempts)).toEqual([1, 3]);
  });

  it('gives an event up after its attempts, saying why', async () => {
    collector.failNext = 1_000;
    const published = await world.owner.api.call('POST', `/api/workspaces/${W}/datasets`, { title: 'Never out', alias: 'never-out', query: `SELECT id FROM ${ordersTable}` });
    expect(published.status).toBe(201);
    await drain();
    collector.failNext = 0;
    const [event] = (await eventsAs('owner')).filter((e) => e.subjectId === published.body.id);
    expect(event).toMatchObject({ kind: 'PUBLISH', eventType: 'JOB', delivery: 'FAILED', attempts: 4, lastError: 'The collector answered 503.' });
  });
  it('gives up, without sending, the events of a run whose job was deleted before they were composed', async () => {
    const before = collector.received.length;
    const job = await runLoad(world, pipelineId, [ORDERS]);
    const deleted = await world.owner.api.call('DELETE', `/api/jobs/${job}`);
    expect(deleted.status).toBe(204);
    await drain();
    expect(collector.received.length).toBe(before);
    const listed = (await eventsAs('owner')).filter((e) => e.subjectId === job);
    expect(listed.map((e) => [e.eventType, e.delivery, e.lastError, e.event])).toEqual([
      ['COMPLETE', 'FAILED', 'What this event reports no longer exists.', null],
      ['START', 'FAILED', 'What this event reports no longer exists.', null],
    ]);
  });
});

describe('reading the events through the API', () => {
  it("lists the workspace's events newest first, each as sent, to its admins", async () => {
    const events = await eventsAs('owner');
    expect(events.length).toBeGreaterThanOrEqual(8);
    const times = events.map((e) => Date.parse(e.eventTime));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const item of events) if (item.event !== null) expect(openLineageErrors(item.event)).toEqual([]);
    const complete = events.find((e) => e.subjectId === completeJob && e.eventType === 'COMPLETE')!;
    expect(complete).toMatchObject({ kind: 'RUN', delivery: 'SENT', lastError: null });
    expect(complete.event).toEqual(collector.ofRun(completeJob)[1]);
    expect(openLineageErrors(complete.event)).toEqual([]);
    expect(linkOf(complete, REL.run)).toContain(`/api/jobs/${completeJob}`);
    expect((await world.owner.api.get(linkOf(complete, REL.run))).status).toBe(200);
  });

  it('pages', async () => {
    const workspace = await world.owner.api.get(`/api/workspaces/${W}`);
    const answer = await world.owner.api.get(`${linkOf(workspace.body, REL.lineageEvents)}?size=2&page=1`);
    expect(answer.status).toBe(200);
    expect(answer.body.page).toMatchObject({ size: 2, number: 1 });
    expect(embedded(answer.body, 'events')).toHaveLength(2);
  });

  it('is not offered to a member, who is refused (403); another workspace’s admin finds nothing (404)', async () => {
    const member = await world.member.api.get(`/api/workspaces/${W}`);
    expect(hasLink(member.body, REL.lineageEvents)).toBe(false);
    expectError(await world.member.api.get(`/api/workspaces/${W}/lineage/events`), 403);
    const outside = await outsiderWorkspace(world);
    expectError(await world.outsider.api.get(`/api/workspaces/${W}/lineage/events`), 404);
    const own = await world.outsider.api.get(`/api/workspaces/${outside}/lineage/events`);
    expect(own.status).toBe(200);
    expect(embedded(own.body, 'events')).toEqual([]);
  });
});
