import { DEPLOY_TRIGGER } from '../../src/domain/pipelineConstants';
import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import { notifyPipelineActivity } from '../notifications/pipelineEvents';
import { newId } from '../repositories/ids';
import { pipelineFacts } from '../repositories/pipelineFacts';
import { findPipelineByName, type PipelineRow } from '../repositories/pipelines';
import { publishDataset } from '../services/publishDataset';
import { savePipeline } from '../services/savePipeline';
import * as setupTasks from '../setupTasks';
import { ensureDefaultStore } from '../stores/defaultStore';
import { yamlField, type DatasetDefinition, type FieldProblem, type PipelineDefinition } from './deployDefinitions';

// Applies a deployment's checked definitions to the workspace in ONE transaction, through the same
// functions the APIs use: savePipeline (pipelines API) and publishDataset (publish API), with the
// setup tasks those routes complete. The rules that need the database (component names, triggers,
// required settings, the query guard, channels, aliases) are met here; any broken rule is a
// FieldProblem and the whole transaction is rolled back, so a deployment applies all or nothing.
// A dry run (some files were invalid already) always rolls back: it only finds the other problems.

export interface Deployed {
  /** empty when everything was applied; otherwise nothing was */
  problems: FieldProblem[];
  /** one line per pipeline and dataset created or updated, then the summary */
  lines: string[];
}

class Refused extends Error {}

/** The field errors of an API's 400, or undefined for any other failure (rethrown). */
function fieldProblems(kind: 'pipelines' | 'datasets', file: string, error: unknown): FieldProblem[] | undefined {
  if (!(error instanceof HttpError) || error.status !== 400) return undefined;
  if (error.errors.length === 0) return [{ file, field: '(file)', message: error.message }];
  return error.errors.map((e) => ({ file, field: yamlField(kind, e.field), message: e.defaultMessage }));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summary(pipelines: { created: number; updated: number }, datasets: { created: number; updated: number }): string {
  const part = (counts: { created: number; updated: number }, word: string) => {
    const total = counts.created + counts.updated;
    const detail = [counts.created > 0 ? `${counts.created} new` : '', counts.updated > 0 ? `${counts.updated} updated` : ''].filter(Boolean).join(', ');
    return `${plural(total, word)}${detail ? ` (${detail})` : ''}`;
  };
  return `Deployed ${part(pipelines, 'pipeline')} and ${part(datasets, 'dataset')}.`;
}

export interface ApplyRequest {
  workspaceId: string;
  /** who deployed: the creator of new pipelines, the actor of setup tasks and notifications */
  profileId: string | null;
  pipelines: readonly PipelineDefinition[];
  datasets: readonly DatasetDefinition[];
  /** the deployment job and the runner whose lease it runs under: nothing is applied once another runner took it over */
  lease?: { jobId: string; owner: string | null };
  /** check against the database only, and roll back even when nothing is wrong (other definitions were invalid already) */
  dryRun?: boolean;
}

export async function applyDefinitions(db: Db, request: ApplyRequest): Promise<Deployed> {
  const { workspaceId, profileId } = request;
  const problems: FieldProblem[] = [];
  const lines: string[] = [];
  const pipelineCounts = { created: 0, updated: 0 };
  const datasetCounts = { created: 0, updated: 0 };
  const updatedPipelines: PipelineRow[] = [];

  const attempt = async <T>(kind: 'pipelines' | 'datasets', file: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      const found = fieldProblems(kind, file, error);
      if (!found) throw error;
      problems.push(...found);
      return undefined;
    }
  };

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
      // Triggers may name pipelines of this same deployment that do not exist yet: the first pass
      // saves every pipeline with those entries standing in as 'deploy' (always valid, same list
      // positions, so a message names the right index); the second saves the real list once every
      // name exists.
      const deployedNames = new Set(request.pipelines.map((p) => p.name.toLowerCase()));
      const saved = new Map<PipelineDefinition, { row: PipelineRow; existed: boolean }>();
      for (const definition of request.pipelines) {
        const existing = await findPipelineByName(trx, workspaceId, definition.name);
        const own = definition.name.toLowerCase();
        const triggers = definition.body.triggeredBy ?? [];
        const standIns = triggers.map((t) => (t.trim().toLowerCase() !== own && deployedNames.has(t.trim().toLowerCase()) ? DEPLOY_TRIGGER : t));
        const row = await attempt('pipelines', definition.file, () =>
          savePipeline(trx, { workspaceId, id: existing?.id ?? newId(), existing, body: { ...definition.body, triggeredBy: standIns }, draft: false, createdBy: profileId, unprefixed: true }),
        );
        if (row) saved.set(definition, { row, existed: existing !== undefined });
      }
      for (const definition of request.pipelines) {
        const first = saved.get(definition);
        const triggers = definition.body.triggeredBy ?? [];
        if (!first || triggers.length === 0) continue;
        const row = await attempt('pipelines', definition.file, () =>
          savePipeline(trx, { workspaceId, id: first.row.id, existing: first.row, body: definition.body, draft: false, createdBy: profileId }),
        );
        if (row) saved.set(definition, { row, existed: first.existed });
      }

      const datasetResults: { definition: DatasetDefinition; created: boolean }[] = [];
      for (const definition of request.datasets) {
        let channelId: string | null = null;
        if (definition.source !== null) {
          const channel = await trx
            .selectFrom('channels')
            .select('id')
            .where('workspace_id', '=', workspaceId)
            .where('name', '=', definition.source)
            .orderBy('created')
            .orderBy('id')
            .executeTakeFirst();
          if (!channel) {
            problems.push({ file: definition.file, field: 'source', message: `names no channel of this workspace ('${definition.source.slice(0, 80)}')` });
            continue;
          }
          channelId = channel.id;
        }
        const published = await attempt('datasets', definition.file, () => publishDataset(trx, workspaceId, { ...definition.body, channelId }));
        if (!published) continue;
        await setupTasks.datasetPublished(trx, workspaceId, published.id, profileId);
        datasetResults.push({ definition, created: published.created });
      }

      if (problems.length > 0 || request.dryRun) throw new Refused();

      for (const definition of request.pipelines) {
        const result = saved.get(definition);
        if (!result) continue;
        const complete = (await pipelineFacts(trx, [result.row], profileId ?? '')).get(result.row.id)?.complete ?? false;
        await setupTasks.pipelineSaved(trx, result.row, complete, profileId);
        if (result.existed) {
          pipelineCounts.updated += 1;
          updatedPipelines.push(result.row);
        } else pipelineCounts.created += 1;
        lines.push(`${result.existed ? 'Updated' : 'Created'} pipeline ${result.row.name} from ${definition.file}.`);
      }
      for (const { definition, created } of datasetResults) {
        datasetCounts[created ? 'created' : 'updated'] += 1;
        lines.push(`${created ? 'Created' : 'Updated'} dataset ${definition.alias} from ${definition.file}.`);
      }
    });
  } catch (error) {
    if (error instanceof Refused) return { problems, lines: [] };
    throw error;
  }

  // As the pipelines API does after its transaction: a workspace with a pipeline has a default
  // store, and a saved pipeline's watchers hear of it.
  if (pipelineCounts.created > 0) await ensureDefaultStore(db, workspaceId);
  for (const row of updatedPipelines) {
    await notifyPipelineActivity(db, row, `A deployment saved pipeline ${row.name}.`, { profileId: profileId ?? '', name: null });
  }
  lines.push(summary(pipelineCounts, datasetCounts));
  return { problems: [], lines };
}
