import { sql } from 'kysely';
import type { Db } from '../db/database';
import { storeDbOf } from '../db/storeDatabase';
import { storeSchemaName } from './storeRole';

/**
 * The columns of these tables of the workspace's own store schema, in their order, in one query of
 * the catalogue (lineage, issue 41). A table the schema does not have is absent from the map, so a
 * name another workspace's store uses is never looked up anywhere else.
 */
export async function storeColumnsOf(db: Db, workspaceId: string, tables: readonly string[]): Promise<Map<string, string[]>> {
  if (tables.length === 0) return new Map();
  const { rows } = await sql<{ table_name: string; column_name: string | null }>`
    SELECT t.table_name, c.column_name
    FROM information_schema.tables t
    LEFT JOIN information_schema.columns c ON c.table_schema = t.table_schema AND c.table_name = t.table_name
    WHERE t.table_schema = ${storeSchemaName(workspaceId)} AND t.table_name IN (${sql.join(tables.map((t) => sql`${t}`))})
    ORDER BY t.table_name, c.ordinal_position`.execute(storeDbOf(db));
  const columns = new Map<string, string[]>();
  for (const row of rows) {
    const list = columns.get(row.table_name) ?? [];
    if (row.column_name !== null) list.push(row.column_name);
    columns.set(row.table_name, list);
  }
  return columns;
}
