import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenLineageSender } from '../../server/openLineage/sender';
import { enqueueJob } from '../../server/runner';
import { openLineageErrors } from '../fixtures/openlineage/validate';
import { logOf, startBench, waitFor, waitForStatus, type Bench } from './helpers';

// Issue 41, item 4, through the real runner and sandbox: the built-in tap-demo → target-store run
// of a pipeline, the OpenLineage sender running beside it as in every process, and a collector on a
// local HTTP endpoint receiving START then COMPLETE (and START then FAIL for a run the tap refuses),
// each valid against the published schema, with the tables the run loaded and their columns.

interface Event {
  eventType?: string;
  run?: { runId?: string; facets?: Record<string, Record<string, unknown>> };
  inputs?: { namespace: string; name: string }[];
  outputs?: { name: string; facets?: { schema?: { fields?: { name: string; type?: string }[] } }; outputFacets?: { outputStatistics?: { rowCount?: number } } }[];
}

describe('OpenLineage events of real pipeline runs', () => {
  let bench: Bench;
  let sender: OpenLineageSender;
  const received: { authorization: string | undefined; event: Event }[] = [];
  const collector = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ authorization: request.headers.authorization, event: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Event });
      response.writeHead(200).end();
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/api/v1/lineage`;
    bench = await startBench();
    await bench.startRunner();
    await bench.component({ name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin' });
    await bench.component({ name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
    sender = new OpenLineageSender({ db: bench.db, log: pino({ level: 'silent' }), settings: { url, apiKey: 'runner-key', timeoutMs: 2_000, maxAttempts: 3, retryBaseMs: 50, intervalMs: 50, producer: 'http://127.0.0.1/api' } });
    sender.start();
  });
  afterAll(async () => {
    await sender?.stop();
    await bench?.close();
    await new Promise((resolve) => collector.close(resolve));
  });

  const run = async (pipelineId: string) => {
    const queued = await enqueueJob(bench.db, pipelineId, { kind: 'MANUAL' });
    if (queued.status !== 'QUEUED') throw new Error(queued.status);
    const job = await waitForStatus(bench.db, queued.job.id, ['COMPLETE', 'ERROR', 'STOPPED'], 60_000);
    return { job, log: (await logOf(bench.db, job.id)).join('\n') };
  };

  const eventsOf = (jobId: string, count: number) =>
    waitFor(async () => {
      await Promise.resolve();
      const events = received.filter((r) => r.event.run?.runId === jobId);
      return events.length >= count ? events : undefined;
    }, `${count} events of run ${jobId}`);

  it('sends START and COMPLETE of a run with what it read and loaded; START and FAIL of a run that fails', async () => {
    const properties = { 'tap-demo.start_date': '2026-10-01T00:00:00Z', 'tap-demo.end_date': '2026-10-03T00:00:00Z', 'tap-demo.seed': 7 };
    const pipeline = await bench.pipeline({ name: 'demo lineage out', dataComponents: ['tap-demo', 'target-store'], properties });
    const loaded = await run(pipeline.id);
    expect(loaded.job.status, loaded.log).toBe('COMPLETE');
    const events = await eventsOf(loaded.job.id, 2);
    expect(events.map((e) => e.event.eventType)).toEqual(['START', 'COMPLETE']);
    for (const { event, authorization } of events) {
      expect(openLineageErrors(event)).toEqual([]);
      expect(authorization).toBe('Bearer runner-key');
    }
    const complete = events[1]!.event;
    expect(complete.outputs?.map((o) => o.name).sort()).toEqual(['customers', 'orders', 'web_sessions']);
    const orders = complete.outputs!.find((o) => o.name === 'orders')!;
    expect(orders.facets?.schema?.fields?.map((f) => f.name)).toEqual(expect.arrayContaining(['id', 'customer_id', 'amount']));
    expect(orders.outputFacets?.outputStatistics?.rowCount).toBeGreaterThan(0);
    expect(complete.inputs?.map((i) => i.name).sort()).toEqual(['customers', 'orders', 'web_sessions']);
    expect(new Set(complete.inputs?.map((i) => i.namespace))).toEqual(new Set([`workspace/${bench.workspaceId}/extractors/tap-demo`]));

    await bench.db.updateTable('pipelines').set({ properties: JSON.stringify({ ...properties, 'tap-demo.start_date': 'not a date' }) }).where('id', '=', pipeline.id).execute();
    const failed = await run(pipeline.id);
    expect(failed.job.status, failed.log).toBe('ERROR');
    const failure = await eventsOf(failed.job.id, 2);
    expect(failure.map((e) => e.event.eventType)).toEqual(['START', 'FAIL']);
    for (const { event } of failure) expect(openLineageErrors(event)).toEqual([]);
    // what the failed run was expected to read: the streams of the pipeline's last run that loaded rows
    expect(failure[0]!.event.inputs?.map((i) => i.name).sort()).toEqual(['customers', 'orders', 'web_sessions']);
  });
});
