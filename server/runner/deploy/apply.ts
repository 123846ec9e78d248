import type { Db } from '../../db/database';
import { notifyPipelineActivity } from '../../notifications/pipelineEvents';
import type { DataStoreRow } from '../../repositories/dataStores';
import type { PipelineRow } from '../../repositories/pipelines';
import { ensureDefaultStore } from '../../stores/defaultStore';
import { enqueueStoreCheck } from '../storeChecks';
import type { FieldProblem } from '../deployDefinitions';
import { applyChannels } from './channels';
import { publishDatasets, settleDatasets } from './datasets';
import { pipelinesWithStores, savePipelines, settlePipelines } from './pipelines';
import { applyPlugins } from './plugins';
import { attemptInto, listed, plural, type ApplyRequest } from './shared';
import { applyDataStores, applyDefaultStore } from './stores';
import { applyWorkspaceSettings } from './workspaceSettings';

// Applies a deployment's checked definitions to the workspace in ONE transaction, through the same
// functions the APIs use: savePipeline (pipelines API) and publishDataset (publish API), with the
// setup tasks those routes complete; before them, in this order, workspace.yml's settings
// (./workspaceSettings.ts), the data stores and the default store (./stores.ts), meltano.yml's
// plugins as data components (./plugins.ts), and the source channels (./channels.ts); then the
// pipelines (./pipelines.ts) and the datasets (./datasets.ts). The rules that need the database
// (component names, triggers, required settings, the query guard, channels, aliases) are met
// there; any broken rule is a FieldProblem and the whole transaction is rolled back, so a
// deployment applies all or nothing. A dry run (some files were invalid already) always rolls
// back: it only finds the other problems.

export type { ApplyRequest } from './shared';

interface Deployed {
  /** empty when everything was applied; otherwise nothing was */
  problems: FieldProblem[];
  /** one line per pipeline and dataset created or updated, then the summary */
  lines: string[];
}

class Refused extends Error {}

function summary(pipelines: { created: number; updated: number }, datasets: { created: number; updated: number }): string {
  const part = (counts: { created: number; updated: number }, word: string) => {
    const total = counts.created + counts.updated;
    const detail = [counts.created > 0 ? `${counts.created} new` : '', counts.updated > 0 ? `${counts.updated} updated` : ''].filter(Boolean).join(', ');
    return `${plural(total, word)}${detail ? ` (${detail})` : ''}`;
  };
  return `Deployed ${part(pipelines, 'pipeline')} and ${part(datasets, 'dataset')}.`;
}

export async function applyDefinitions(db: Db, request: ApplyRequest): Promise<Deployed> {
  const { workspaceId, profileId } = request;
  const problems: FieldProblem[] = [];
  const lines: string[] = [];
  let pipelineCounts = { created: 0, updated: 0 };
  let datasetCounts = { created: 0, updated: 0 };
  let updatedPipelines: PipelineRow[] = [];
  const savedStores: DataStoreRow[] = [];
  const attempt = attemptInto(problems);

  try {
    await db.transaction().execute(async (trx) => {
      // Several server processes may share the queue: the job row stays locked while this
      // transaction writes, and a job whose lease another runner recovered applies nothing.
      if (request.lease) {
        const owned = await trx
          .selectFrom('jobs')
          .select('id')
          .where('id', '=', request.lease.jobId)
          .where('status', '=', 'RUNNING')
          .where('lease_owner', request.lease.owner === null ? 'is' : '=', request.lease.owner)
          .forUpdate()
          .executeTakeFirst();
        if (!owned) throw new Error("Nothing deployed: this runner no longer holds the job's lease.");
      }
      await applyWorkspaceSettings(trx, request, lines);
      const stores = await applyDataStores(trx, request, problems, lines, savedStores);
      const defaultStore = await applyDefaultStore(trx, request, stores, problems, lines);
      await applyPlugins(trx, request, problems, lines);
      await applyChannels(trx, request, lines);
      const pipelines = await pipelinesWithStores(trx, request, stores, defaultStore, problems);
      const saved = await savePipelines(trx, request, pipelines, attempt);
      const published = await publishDatasets(trx, request, problems, attempt);

      if (problems.length > 0 || request.dryRun) throw new Refused();

      const settled = await settlePipelines(trx, request, pipelines, saved, lines);
      pipelineCounts = { created: settled.created, updated: settled.updated };
      updatedPipelines = settled.updatedRows;
      datasetCounts = settleDatasets(published, lines);
      lines.push(...(await keptLines(trx, request)));
    });
  } catch (error) {
    if (error instanceof Refused) return { problems, lines: [] };
    throw error;
  }

  // As the pipelines API does after its transaction: a workspace with a pipeline has a default
  // store, and a saved pipeline's watchers hear of it.
  if (pipelineCounts.created > 0) await ensureDefaultStore(db, workspaceId);
  // As the data stores API does: a store saved for use is checked (queued once it is committed).
  for (const store of savedStores) await enqueueStoreCheck(db, store, profileId);
  for (const row of updatedPipelines) {
    await notifyPipelineActivity(db, row, `A deployment saved pipeline ${row.name}.`, { profileId: profileId ?? '', name: null });
  }
  lines.push(summary(pipelineCounts, datasetCounts));
  return { problems: [], lines };
}

/** What the workspace holds that the repository no longer (or never) defined: kept, and said. */
async function keptLines(trx: Db, request: ApplyRequest): Promise<string[]> {
  const names = new Set(request.pipelines.map((p) => p.name.trim().toLowerCase()));
  const aliases = new Set(request.datasets.map((d) => d.alias));
  const [pipelines, datasets] = await Promise.all([
    trx.selectFrom('pipelines').select('name').where('workspace_id', '=', request.workspaceId).where('draft', '=', false).orderBy('name').execute(),
    trx.selectFrom('datasets').select(['alias', 'title']).where('workspace_id', '=', request.workspaceId).orderBy('alias').execute(),
  ]);
  const keptPipelines = pipelines.map((p) => p.name).filter((n) => !names.has(n.trim().toLowerCase()));
  const keptDatasets = datasets.filter((d) => d.alias === null || !aliases.has(d.alias)).map((d) => d.alias ?? d.title);
  const out: string[] = [];
  const why = 'a deployment never deletes; delete it in the app if it should go';
  if (keptPipelines.length > 0) out.push(`Kept ${plural(keptPipelines.length, 'pipeline')} the repository does not define (${why}): ${listed(keptPipelines)}.`);
  if (keptDatasets.length > 0) out.push(`Kept ${plural(keptDatasets.length, 'dataset')} the repository does not define (${why}): ${listed(keptDatasets)}.`);
  return out;
}
