import fs from 'node:fs';
import path from 'node:path';
import { DAILY_CRON } from '../../src/domain/cron';
import { TABLE_PREFIX_SETTING } from '../../src/domain/tableNamespace';
import type { Db } from '../db/database';
import { createDataComponent, type DataComponentInput } from '../repositories/dataComponents';
import { createPipeline, type PipelineInput } from '../repositories/pipelines';
import { bytesOf, writeResource } from '../repositories/workspaceResources';
import { enqueueJob } from '../runner';
import { appendLogLines } from '../runner/logs';
import { repositoryRoot } from '../plugins/repositoryRoot';
import { ensureDefaultStore } from '../stores/defaultStore';

// The demo workspace's Lab: two pipelines of the built-in plugins into the default store, one
// daily and one triggered by it. The seed only queues the first run; the runner runs it, and its
// COMPLETE queues the second, so the history the Lab shows is real and the store has tables.

/** The sample files of the second pipeline, shipped with the server. */
export const DEMO_FILES_DIR = path.join(repositoryRoot(), 'server', 'seed', 'files');
/** The folder of the demo workspace's files (its resources) they are stored under; tap-files reads it in the project. */
const DEMO_FILES_PROJECT_DIR = 'demo-files';

/**
 * Stores the sample files as the demo workspace's files, in the database (at every start,
 * restoring them), from where every job's project gets them on whichever worker it runs
 * (runner/workspaceFiles.ts). A file whose bytes did not change keeps its modification time,
 * which tap-files' bookmarks compare.
 */
export async function storeDemoFiles(db: Db, workspaceId: string): Promise<void> {
  for (const name of fs.readdirSync(DEMO_FILES_DIR).sort()) {
    const content = bytesOf(fs.readFileSync(path.join(DEMO_FILES_DIR, name)));
    const contentType = name.endsWith('.csv') ? 'text/csv' : 'application/octet-stream';
    // the demo's own few kilobytes: no quota to keep
    await writeResource(db, { workspaceId, path: `${DEMO_FILES_PROJECT_DIR}/${name}`, content, contentType, profileId: null }, Number.POSITIVE_INFINITY);
  }
}

export const DEMO_PIPELINES = {
  sales: 'Demo sales data',
  reference: 'Reference files',
} as const;

const COMPONENTS: DataComponentInput[] = [
  { name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: 'builtin', properties: { seed: 42, scale: 1 } },
  {
    name: 'tap-files',
    pluginType: 'EXTRACTOR',
    pluginName: 'tap-files',
    variant: 'builtin',
    properties: { paths: [DEMO_FILES_PROJECT_DIR], key_properties: { countries: ['code'], sales_targets: ['month'] } },
  },
  { name: 'target-store', pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' },
];

const PIPELINES: Array<PipelineInput & { name: string }> = [
  {
    name: DEMO_PIPELINES.sales,
    draft: false,
    schedule: DAILY_CRON,
    dataComponents: ['tap-demo', 'target-store'],
    // the demo's datasets read the bare stream names: a pipeline added later gets a prefix of its own
    properties: { [`target-store.${TABLE_PREFIX_SETTING}`]: '' },
    timeout: 600,
    maxRetries: 1,
  },
  {
    name: DEMO_PIPELINES.reference,
    draft: false,
    dataComponents: ['tap-files', 'target-store'],
    properties: { [`target-store.${TABLE_PREFIX_SETTING}`]: '' },
    triggeredBy: [DEMO_PIPELINES.sales],
  },
];

/**
 * Creates the components, the default store and the two pipelines, and queues the first run of
 * the daily one. Called inside the demo seed's transaction, so it happens once, with the rest.
 */
export async function seedDemoPipelines(db: Db, workspaceId: string, ownerId: string, now: Date): Promise<{ pipelineIds: string[]; firstJobId: string }> {
  await ensureDefaultStore(db, workspaceId);
  // in the seed's transaction: the first run of the files pipeline must find them on any worker
  await storeDemoFiles(db, workspaceId);
  for (const component of COMPONENTS) {
    const created = await createDataComponent(db, workspaceId, component);
    if (!created.ok) throw new Error(`seed: the component name ${component.name}: ${created.problem}`);
  }
  const pipelineIds: string[] = [];
  for (const input of PIPELINES) {
    const created = await createPipeline(db, workspaceId, input, ownerId);
    if (!created.ok) throw new Error(`seed: the pipeline name ${input.name} is taken`);
    pipelineIds.push(created.pipeline.id);
  }
  const queued = await enqueueJob(db, pipelineIds[0]!, { kind: 'SEED', description: 'the demo seed (first start)' });
  if (queued.status !== 'QUEUED') throw new Error(`seed: the first run could not be queued (${queued.status})`);
  await appendLogLines(db, queued.job.id, [`Queued by the demo seed on the first start; ${DEMO_PIPELINES.reference} runs when this run completes.`], now);
  return { pipelineIds, firstJobId: queued.job.id };
}
