import { breachDetail, breachingValue } from '../../src/domain/alertRules';
import { withImpact } from '../../src/domain/lineageImpact';
import type { Db } from '../db/database';
import { insertAlert, insertAlertOnce, rulesOf, setBreached, type AlertRow } from '../repositories/alerts';
import { datasetSubscribersOf } from '../repositories/subscriptions';
import { checkQuery, type CheckedQuery } from '../stores/queryGuard';
import { missingTables, runQuery } from '../stores/queryRunner';
import { failureImpact } from './failureImpact';
import { notify } from './notify';

// What a pipeline run means for the datasets that read its tables (issue 12):
// - a run that ends ERROR (no retry left) or times out raises an alert on every dataset whose
//   query reads a table the pipeline loads, told to the dataset's ALERTS and ALL watchers, naming
//   every dataset and dashboard the failure reaches (issue 41: the lineage service's impact);
// - a COMPLETE run that loaded a dataset's tables is DATASET_ACTIVITY for its ALL watchers, and
//   then the dataset's threshold rules are checked against its fresh rows.
// A dataset's tables come from its parsed SQL (queryGuard), the pipeline's tables from store_loads.

interface EndedJob {
  id: string;
  workspace_id: string;
  pipeline_id: string | null;
  type: string;
  end_reason: string | null;
}

/** Rows a rule is checked against at most, and the query's time limit. */
const RULE_ROWS = 10_000;
const RULE_QUERY_LIMITS = { timeoutMs: 15_000 };

interface DatasetReading {
  id: string;
  title: string;
  checked: CheckedQuery;
}

/** The workspace's datasets whose query reads one of `tables` (a query that no longer parses reads nothing). */
async function datasetsReading(db: Db, workspaceId: string, tables: ReadonlySet<string>): Promise<DatasetReading[]> {
  if (tables.size === 0) return [];
  const rows = await db.selectFrom('datasets').select(['id', 'title', 'query']).where('workspace_id', '=', workspaceId).where('query', 'is not', null).orderBy('id').execute();
  const found: DatasetReading[] = [];
  for (const row of rows) {
    const checked = await checkQuery(row.query ?? '').catch(() => undefined);
    if (checked?.tables.some((t) => tables.has(t))) found.push({ id: row.id, title: row.title, checked });
  }
  return found;
}

/** The tables this job's own loads wrote last. */
async function tablesLoaded(db: Db, workspaceId: string, jobId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('store_loads').select('table_name').where('workspace_id', '=', workspaceId).where('job_id', '=', jobId).execute();
  return new Set(rows.map((r) => r.table_name));
}

/** Raises an alert and tells the dataset's watchers (ALERTS and ALL), in the caller's transaction. */
async function raiseAlert(db: Db, dataset: { id: string; workspaceId: string }, alert: { detail: string; jobId?: string; ruleId?: string }): Promise<void> {
  await insertAlert(db, { datasetId: dataset.id, detail: alert.detail, jobId: alert.jobId ?? null, ruleId: alert.ruleId ?? null });
  const profileIds = await datasetSubscribersOf(db, dataset.id, true);
  await notify(db, { profileIds, workspaceId: dataset.workspaceId, type: 'DATASET_ALERT', message: alert.detail, actorName: null, datasetId: dataset.id, jobId: alert.jobId ?? null, isError: true });
}

/**
 * An alert raised by hand ('create alert'), told like any other to the dataset's watchers, with
 * the person who raised it as the actor. Undefined when the id is taken already.
 */
export async function raiseAlertByHand(db: Db, dataset: { id: string; workspaceId: string }, alert: { id: string; detail: string; actorName: string | null }): Promise<AlertRow | undefined> {
  const row = await insertAlertOnce(db, { id: alert.id, datasetId: dataset.id, detail: alert.detail });
  if (!row) return undefined;
  const profileIds = await datasetSubscribersOf(db, dataset.id, true);
  await notify(db, { profileIds, workspaceId: dataset.workspaceId, type: 'DATASET_ALERT', message: alert.detail, actorName: alert.actorName, datasetId: dataset.id, isError: true });
  return row;
}

/**
 * Called in the transaction that ends a job (runner/queue.ts finishJob). `final`: no retry was
 * queued, so a failure is the pipeline's last word for now (a retry that may still succeed is not
 * worth an alert). Returns the datasets a COMPLETE run refreshed, for checkRulesAfterRefresh.
 */
export async function datasetEventsOfJobEnd(db: Db, job: EndedJob, status: string, final: boolean): Promise<string[]> {
  if (job.type !== 'PIPELINE_RUN' || job.pipeline_id === null) return [];
  const pipeline = await db.selectFrom('pipelines').select('name').where('id', '=', job.pipeline_id).executeTakeFirst();
  if (!pipeline) return [];
  const failed = (status === 'ERROR' && final) || (status === 'STOPPED' && job.end_reason === 'TIMEOUT');
  if (failed) {
    // Which datasets are hit, and what each alert names, is the lineage rule (failureImpact.ts).
    const impact = await failureImpact(db, job.workspace_id, job.pipeline_id);
    for (const dataset of impact.downstream) {
      const tables = dataset.tables.join(', ');
      const detail = withImpact(`Refresh failed: pipeline ${pipeline.name} ended ${status === 'ERROR' ? 'in error' : 'after its time limit'}, so ${tables} may be out of date.`, impact);
      await raiseAlert(db, { id: dataset.id, workspaceId: job.workspace_id }, { detail, jobId: job.id });
    }
    return [];
  }
  if (status !== 'COMPLETE') return [];
  const datasets = await datasetsReading(db, job.workspace_id, await tablesLoaded(db, job.workspace_id, job.id));
  for (const dataset of datasets) {
    const profileIds = await datasetSubscribersOf(db, dataset.id, false);
    await notify(db, { profileIds, workspaceId: job.workspace_id, type: 'DATASET_ACTIVITY', message: `${dataset.title} was refreshed by pipeline ${pipeline.name}.`, actorName: null, datasetId: dataset.id, jobId: job.id });
  }
  return datasets.map((d) => d.id);
}

/**
 * After the job's transaction committed: each refreshed dataset's rules against its fresh rows,
 * read through the read-only query path. A rule that starts to breach raises one alert; one
 * that stops breaching is re-armed. A query that fails now is left for the dataset page to show.
 */
export async function checkRulesAfterRefresh(db: Db, workspaceId: string, datasetIds: readonly string[]): Promise<number> {
  let raised = 0;
  for (const datasetId of datasetIds) {
    const rules = await rulesOf(db, datasetId);
    if (rules.length === 0) continue;
    const dataset = await db.selectFrom('datasets').select(['id', 'query']).where('id', '=', datasetId).executeTakeFirst();
    if (!dataset?.query) continue;
    let rows: Record<string, unknown>[];
    try {
      const checked = await checkQuery(dataset.query);
      if ((await missingTables(db, workspaceId, checked.tables)).length > 0) continue;
      rows = (await runQuery(db, workspaceId, checked, RULE_ROWS, RULE_QUERY_LIMITS)).rows;
    } catch {
      continue;
    }
    for (const rule of rules) {
      const asInput = { column: rule.column_name, operator: rule.operator, threshold: rule.threshold };
      const value = breachingValue(asInput, rows);
      if (value === undefined) {
        if (rule.breached) await setBreached(db, rule.id, false);
        continue;
      }
      if (rule.breached) continue;
      // The flip and the alert commit together: only the process that flipped raises it.
      const didRaise = await db.transaction().execute(async (trx) => {
        if (!(await setBreached(trx, rule.id, true))) return false;
        await raiseAlert(trx, { id: datasetId, workspaceId }, { detail: breachDetail(asInput, value), ruleId: rule.id });
        return true;
      });
      if (didRaise) raised += 1;
    }
  }
  return raised;
}
