import { sql, type Kysely } from 'kysely';

/**
 * The plugins a workspace installed from the catalogue (spec 001 §2 'Plugin catalogue'), and the
 * custom plugins it published by discovery upload (`definition` holds the plugin as read). The
 * built-in plugins are installed everywhere and have no row. An empty variant means none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE workspace_dataplugins (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      plugin_type text NOT NULL CHECK (plugin_type IN ('EXTRACTOR', 'LOADER', 'MAPPER', 'TRANSFORMER', 'UTILITY', 'FILE')),
      name text NOT NULL,
      variant text NOT NULL DEFAULT '',
      definition jsonb,
      created timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX workspace_dataplugins_plugin_idx ON workspace_dataplugins (workspace_id, plugin_type, name, variant);
  `.execute(db);
}
