import type { Selectable } from 'kysely';
import type { AlertRuleInput } from '../../src/domain/alertRules';
import type { Db } from '../db/database';
import type { DatasetAlertRulesTable, DatasetAlertsTable } from '../db/schema';
import type { Paging } from '../http/hal';
import { newId } from './ids';

export type AlertRow = Selectable<DatasetAlertsTable>;
export type AlertRuleRow = Selectable<DatasetAlertRulesTable>;

/** A dataset's alerts, the newest first. */
export async function alertsOf(db: Db, datasetId: string, paging: Paging): Promise<{ items: AlertRow[]; total: number }> {
  const [items, count] = await Promise.all([
    db
      .selectFrom('dataset_alerts')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .orderBy('raised', 'desc')
      .orderBy('id', 'desc')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    db.selectFrom('dataset_alerts').select((eb) => eb.fn.countAll<string>().as('n')).where('dataset_id', '=', datasetId).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

export async function insertAlert(db: Db, alert: { datasetId: string; detail: string; jobId?: string | null; ruleId?: string | null }): Promise<AlertRow> {
  return db
    .insertInto('dataset_alerts')
    .values({ id: newId(), dataset_id: alert.datasetId, detail: alert.detail, job_id: alert.jobId ?? null, rule_id: alert.ruleId ?? null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function rulesOf(db: Db, datasetId: string): Promise<AlertRuleRow[]> {
  return db.selectFrom('dataset_alert_rules').selectAll().where('dataset_id', '=', datasetId).orderBy('position').execute();
}

/**
 * Replaces the dataset's rules in one transaction. A rule that is kept word for word keeps its
 * breached state, so saving the form again does not raise its alert a second time.
 */
export async function replaceRules(db: Db, datasetId: string, rules: readonly AlertRuleInput[]): Promise<AlertRuleRow[]> {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('dataset_alert_rules').selectAll().where('dataset_id', '=', datasetId).forUpdate().execute();
    const same = (a: AlertRuleRow, b: AlertRuleInput) => a.column_name === b.column && a.operator === b.operator && a.threshold === b.threshold;
    await trx.deleteFrom('dataset_alert_rules').where('dataset_id', '=', datasetId).execute();
    if (rules.length > 0) {
      await trx
        .insertInto('dataset_alert_rules')
        .values(
          rules.map((rule, position) => ({
            id: newId(),
            dataset_id: datasetId,
            column_name: rule.column,
            operator: rule.operator,
            threshold: rule.threshold,
            breached: before.some((old) => old.breached && same(old, rule)),
            position,
          })),
        )
        .execute();
    }
    return trx.selectFrom('dataset_alert_rules').selectAll().where('dataset_id', '=', datasetId).orderBy('position').execute();
  });
}

/**
 * Flips a rule's breached state; true only for the one caller that flipped it, so with several
 * server processes an alert is raised once per crossing.
 */
export async function setBreached(db: Db, ruleId: string, breached: boolean): Promise<boolean> {
  const result = await db.updateTable('dataset_alert_rules').set({ breached }).where('id', '=', ruleId).where('breached', '=', !breached).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type AlertWithWorkspace = AlertRow & { workspace_id: string };

/** An alert with its dataset's workspace (every member of which reads it). */
export async function findAlert(db: Db, id: string): Promise<AlertWithWorkspace | undefined> {
  return db.selectFrom('dataset_alerts as a').innerJoin('datasets as d', 'd.id', 'a.dataset_id').selectAll('a').select('d.workspace_id').where('a.id', '=', id).executeTakeFirst();
}

/** An alert raised by hand under the id its initialisation gave; undefined when that id is taken (alerts never change). */
export async function insertAlertOnce(db: Db, alert: { id: string; datasetId: string; detail: string }): Promise<AlertRow | undefined> {
  return db
    .insertInto('dataset_alerts')
    .values({ id: alert.id, dataset_id: alert.datasetId, detail: alert.detail, job_id: null, rule_id: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .executeTakeFirst();
}
