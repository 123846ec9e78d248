import { sql, type Kysely } from 'kysely';

/**
 * Pipelines get a table prefix per loader (src/domain/tableNamespace.ts); a new pipeline's is named
 * from it. The pipelines that exist already write the bare stream names and the workspace's datasets
 * read them there, so each of their prefix-taking loaders (target-store, target-postgres) is given
 * the empty prefix: nothing moves, no dataset breaks, and the next pipeline of the same extractor
 * gets tables of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE pipelines p SET properties = p.properties || (
      SELECT jsonb_object_agg(c.name || '.table_prefix', '')
      FROM data_components c
      WHERE c.workspace_id = p.workspace_id
        AND c.plugin_type = 'LOADER'
        AND c.plugin_name IN ('target-store', 'target-postgres')
        AND p.data_components ? c.name
        AND NOT p.properties ? (c.name || '.table_prefix')
    )
    WHERE EXISTS (
      SELECT 1 FROM data_components c
      WHERE c.workspace_id = p.workspace_id
        AND c.plugin_type = 'LOADER'
        AND c.plugin_name IN ('target-store', 'target-postgres')
        AND p.data_components ? c.name
        AND NOT p.properties ? (c.name || '.table_prefix')
    )
  `.execute(db);
}
