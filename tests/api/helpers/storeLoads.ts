import { BridgeClient } from '../../../server/plugins/bridgeClient';
import { RunnerBridge } from '../../../server/runner/bridge';
import { CopyBatch } from '../../../server/stores/copyText';
import type { TableShape } from '../../../server/stores/tableShape';
import { claimNextJob, finishJob } from '../../../server/runner/queue';
import { DEMO } from '../../../server/seed';
import { REL } from '../../../src/domain/relations';
import { linkOf } from './http';
import type { World } from './world';

// Loads store tables the way a pipeline run does: a job of a real pipeline, claimed from the
// queue, writing through the runner's bridge (store.prepare, store.copy), then finished.

const RUNNER = 'dataset-test-runner';

export interface StreamLoad {
  stream: string;
  schema: Record<string, unknown>;
  key: string[];
  records: Record<string, unknown>[];
}

/** A runnable demo pipeline made through the API (the owner must have logged in). */
export async function makePipeline(world: World, name: string): Promise<string> {
  const api = world.owner.api;
  const workspace = await api.get(`/api/workspaces/${DEMO.workspaceId}`);
  const draft = await api.call('POST', linkOf(workspace.body, REL.newPipeline));
  const created = await api.call('PUT', linkOf(draft.body, REL.createPipeline), { name, dataComponents: ['extractors/tap-demo', 'loaders/target-store'] });
  if (created.status !== 201) throw new Error(`pipeline not created: ${created.status} ${JSON.stringify(created.body)}`);
  return String(created.body.id);
}

/** One run of the pipeline that loads these streams and ends with `exitCode` (0: COMPLETE, else ERROR); its job id. */
export async function runLoad(world: World, pipelineId: string, loads: StreamLoad[], exitCode = 0): Promise<string> {
  const started = await world.owner.api.call('POST', `/api/pipelines/${pipelineId}/jobs`);
  if (started.status !== 201) throw new Error(`job not started: ${started.status} ${JSON.stringify(started.body)}`);
  const job = await claimNextJob(world.server.db, RUNNER, 60_000);
  if (!job || job.id !== started.body.id) throw new Error('claimed another job than the one started');
  const bridge = new RunnerBridge(world.server.db);
  await bridge.listen();
  const token = bridge.grant({ jobId: job.id, workspaceId: job.workspace_id, pipelineId });
  const client = new BridgeClient(bridge.socketPath, token);
  try {
    for (const load of loads) {
      const { shape } = (await client.request('store.prepare', { stream: load.stream, schema: load.schema, keyProperties: load.key })) as { shape: TableShape };
      const batch = new CopyBatch(shape);
      for (const record of load.records) batch.add(record);
      const { data, records } = batch.take();
      await client.request('store.copy', { stream: load.stream, records }, data);
    }
  } finally {
    client.close();
    bridge.revoke(token);
    await bridge.close();
  }
  await finishJob(world.server.db, job.id, RUNNER, { reason: 'EXITED', exitCode, lines: [], retryBaseMs: 0 });
  return job.id;
}
