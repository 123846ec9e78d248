import { sql, type Kysely } from 'kysely';

/**
 * Dataset alerts (spec 002 §3 Alert: id, raised, detail) and the rules that raise them besides a
 * failed refresh. A rule remembers whether it is breached, so an alert is raised when the data
 * crosses the threshold, not again on every refresh while it stays across.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE dataset_alert_rules (
      id uuid PRIMARY KEY,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      column_name text NOT NULL,
      operator text NOT NULL CHECK (operator IN ('>', '>=', '<', '<=')),
      threshold double precision NOT NULL,
      breached boolean NOT NULL DEFAULT false,
      position integer NOT NULL,
      created timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX dataset_alert_rules_dataset_idx ON dataset_alert_rules (dataset_id, position);
    CREATE TABLE dataset_alerts (
      id uuid PRIMARY KEY,
      dataset_id uuid NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      rule_id uuid REFERENCES dataset_alert_rules(id) ON DELETE SET NULL,
      job_id uuid REFERENCES jobs(id) ON DELETE SET NULL,
      detail text NOT NULL,
      raised timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX dataset_alerts_dataset_idx ON dataset_alerts (dataset_id, raised DESC, id);
  `.execute(db);
}
