import { sql, type Selectable } from 'kysely';
import { componentNameProblem } from '../../src/domain/settingEnv';
import type { Db } from '../db/database';
import type { DataComponentsTable } from '../db/schema';
import { isUniqueViolation, newId } from './ids';
import { ownValue } from '../../src/domain/ownValue';

export type DataComponentRow = Selectable<DataComponentsTable>;

const PLUGIN_TYPES = ['EXTRACTOR', 'LOADER', 'MAPPER', 'TRANSFORMER', 'UTILITY', 'FILE'] as const;
export type PluginTypeName = (typeof PLUGIN_TYPES)[number];

const PLURALS: Record<string, PluginTypeName> = {
  extractors: 'EXTRACTOR',
  loaders: 'LOADER',
  mappers: 'MAPPER',
  transformers: 'TRANSFORMER',
  utilities: 'UTILITY',
  files: 'FILE',
};

interface PluginReference {
  pluginType: PluginTypeName;
  pluginName: string;
  variant: string | null;
}

/**
 * A dataComponents entry that names a plugin rather than an existing component:
 * `{pluginType}/{pluginName}[--{variant}]`, the type plural lower-case as in a Meltano project
 * (`extractors/tap-demo`, `loaders/target-store--builtin`) or the singular upper-case type.
 */
export function parsePluginReference(entry: string): PluginReference | undefined {
  const match = /^([A-Za-z]+)\/([A-Za-z0-9][A-Za-z0-9_.-]*?)(?:--([A-Za-z0-9][A-Za-z0-9_.-]*))?$/.exec(entry);
  if (!match) return undefined;
  const plural = match[1]!.toLowerCase();
  // own keys only: `constructor/x` must not find Object.prototype's
  const type = ownValue(PLURALS, plural) ?? PLUGIN_TYPES.find((t) => t === match[1]);
  if (!type) return undefined;
  return { pluginType: type, pluginName: match[2]!, variant: match[3] ?? null };
}

export async function listDataComponents(db: Db, workspaceId: string): Promise<DataComponentRow[]> {
  return db.selectFrom('data_components').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute();
}

export async function getDataComponent(db: Db, id: string): Promise<DataComponentRow | undefined> {
  return db.selectFrom('data_components').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface DataComponentInput {
  /** the id a client chose (PUT at a workspace's datacomponents/{id}); a new one otherwise */
  id?: string;
  name: string;
  pluginType: PluginTypeName;
  pluginName: string;
  variant?: string | null;
  properties?: Record<string, unknown>;
}

/** A write refused for its name: taken in the workspace, or in the system's variable namespace. */
type ComponentWrite = { ok: true; component: DataComponentRow } | { ok: false; problem: string };

const COMPONENT_NAME_TAKEN = 'A data component with this name already exists in the workspace';

export async function createDataComponent(db: Db, workspaceId: string, input: DataComponentInput): Promise<ComponentWrite> {
  // every way a component is made (the API, a deployment, a pipeline naming a plugin, the seed) comes here
  const problem = componentNameProblem(input.name);
  if (problem !== undefined) return { ok: false, problem };
  try {
    const component = await db
      .insertInto('data_components')
      .values({
        id: input.id ?? newId(),
        workspace_id: workspaceId,
        name: input.name,
        plugin_type: input.pluginType,
        plugin_name: input.pluginName,
        variant: input.variant ?? null,
        properties: JSON.stringify(input.properties ?? {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ok: true, component };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, problem: COMPONENT_NAME_TAKEN };
    throw error;
  }
}

export async function updateDataComponent(db: Db, id: string, changes: { name?: string; properties?: Record<string, unknown> }): Promise<ComponentWrite | undefined> {
  const problem = changes.name === undefined ? undefined : componentNameProblem(changes.name);
  if (problem !== undefined) return { ok: false, problem };
  try {
    const component = await db
      .updateTable('data_components')
      .set({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.properties === undefined ? {} : { properties: JSON.stringify(changes.properties) }),
        last_modified: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return component ? { ok: true, component } : undefined;
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, problem: COMPONENT_NAME_TAKEN };
    throw error;
  }
}

/** The names of the workspace's pipelines (drafts too) whose dataComponents name the component. */
async function pipelinesUsing(db: Db, component: { workspace_id: string; name: string }): Promise<string[]> {
  const rows = await db
    .selectFrom('pipelines')
    .select('name')
    .where('workspace_id', '=', component.workspace_id)
    .where(sql<boolean>`data_components @> ${JSON.stringify([component.name])}::jsonb`)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

/**
 * Deletes the component, with its properties (settings, secrets and OAuth credentials live in its
 * row), unless a pipeline names it: then nothing changes and those pipelines are named. The check
 * and the delete are one statement, so a component is never removed from under a pipeline that
 * named it before the delete began.
 */
export async function deleteUnusedDataComponent(db: Db, component: { id: string; workspace_id: string; name: string }): Promise<{ deleted: true } | { deleted: false; usedBy: string[] }> {
  const removed = await db
    .deleteFrom('data_components')
    .where('id', '=', component.id)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('pipelines')
            .select(sql`1`.as('one'))
            .whereRef('pipelines.workspace_id', '=', 'data_components.workspace_id')
            .where(sql<boolean>`pipelines.data_components @> jsonb_build_array(data_components.name)`),
        ),
      ),
    )
    .returning('id')
    .executeTakeFirst();
  if (removed) return { deleted: true };
  const usedBy = await pipelinesUsing(db, component);
  // gone already (a concurrent delete): as deleted
  return usedBy.length > 0 ? { deleted: false, usedBy } : { deleted: true };
}

/**
 * The components a pipeline's dataComponents entries name, in order: an existing component by
 * name, or a plugin reference, for which the workspace's component of that plugin is reused or
 * a new one (named after the plugin) is created. Entries that are neither come back in `unknown`.
 */
export async function resolveDataComponents(db: Db, workspaceId: string, entries: readonly string[]): Promise<{ components: DataComponentRow[]; unknown: string[] }> {
  const existing = await listDataComponents(db, workspaceId);
  const components: DataComponentRow[] = [];
  const unknown: string[] = [];
  for (const entry of entries) {
    const byName = existing.find((c) => c.name === entry);
    if (byName) {
      components.push(byName);
      continue;
    }
    const reference = parsePluginReference(entry);
    if (!reference) {
      unknown.push(entry);
      continue;
    }
    const same = existing.find((c) => c.plugin_type === reference.pluginType && c.plugin_name === reference.pluginName && (reference.variant === null || c.variant === reference.variant));
    if (same) {
      components.push(same);
      continue;
    }
    let name = reference.pluginName;
    for (let n = 2; existing.some((c) => c.name === name); n++) name = `${reference.pluginName}-${n}`;
    const created = await createDataComponent(db, workspaceId, { name, pluginType: reference.pluginType, pluginName: reference.pluginName, variant: reference.variant });
    if (!created.ok) {
      unknown.push(entry);
      continue;
    }
    existing.push(created.component);
    components.push(created.component);
  }
  return { components, unknown };
}
