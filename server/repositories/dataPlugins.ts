import type { DiscoveredPlugin } from '../../src/domain/discovery';
import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import { cataloguePlugin, cataloguePlugins, findCataloguePlugin, type CataloguePlugin } from '../plugins/catalogue';
import { newId } from './ids';

// A workspace's plugins: the built-in ones (always installed, no row), the catalogue plugins it
// installed (a row naming them) and the custom plugins it published (a row with the definition).
// Available plugins are the catalogue's others. A plugin is named by type, name and variant.

export interface WorkspacePlugin extends CataloguePlugin {
  installed: boolean;
  /** published by this workspace's discovery upload */
  custom: boolean;
  /** installed, not built in, and no data component of the workspace is made from it */
  canDelete: boolean;
}

interface PluginKey {
  pluginType: string;
  name: string;
  variant: string | null;
}

const sameKey = (a: PluginKey, b: PluginKey) => a.pluginType === b.pluginType && a.name === b.name && (a.variant ?? '') === (b.variant ?? '');

interface WorkspaceState {
  rows: { plugin_type: string; name: string; variant: string; definition: Record<string, unknown> | null }[];
  used: PluginKey[];
}

async function stateOf(db: Db, workspaceId: string): Promise<WorkspaceState> {
  const [rows, components] = await Promise.all([
    db.selectFrom('workspace_dataplugins').select(['plugin_type', 'name', 'variant', 'definition']).where('workspace_id', '=', workspaceId).execute(),
    db.selectFrom('data_components').select(['plugin_type', 'plugin_name', 'variant']).where('workspace_id', '=', workspaceId).execute(),
  ]);
  return { rows, used: components.map((c) => ({ pluginType: c.plugin_type, name: c.plugin_name, variant: c.variant })) };
}

/** A component made without a variant uses the default one: the built-in, else the first listed. */
function isUsed(plugin: CataloguePlugin, used: readonly PluginKey[]): boolean {
  return used.some((u) => {
    if (u.pluginType !== plugin.pluginType || u.name !== plugin.name) return false;
    if ((u.variant ?? '') === (plugin.variant ?? '')) return true;
    return u.variant === null && findCataloguePlugin(plugin.pluginType, plugin.name, null)?.id === plugin.id;
  });
}

function withState(plugin: CataloguePlugin, installed: boolean, custom: boolean, used: readonly PluginKey[]): WorkspacePlugin {
  return { ...plugin, installed, custom, canDelete: installed && !plugin.builtin && !isUsed(plugin, used) };
}

function rowPlugin(row: WorkspaceState['rows'][number]): { plugin: CataloguePlugin; custom: boolean } | undefined {
  if (row.definition !== null) return { plugin: cataloguePlugin(row.definition as unknown as DiscoveredPlugin, false), custom: true };
  const plugin = findCataloguePlugin(row.plugin_type, row.name, row.variant === '' ? null : row.variant);
  return plugin ? { plugin, custom: false } : undefined;
}

/** Every plugin the workspace knows: installed ones (built-ins first, then installed and custom) and the available rest. */
export async function workspacePlugins(db: Db, workspaceId: string): Promise<{ installed: WorkspacePlugin[]; available: WorkspacePlugin[] }> {
  const { rows, used } = await stateOf(db, workspaceId);
  const fromRows = rows.flatMap((row) => rowPlugin(row) ?? []);
  const installed = [
    ...cataloguePlugins().filter((p) => p.builtin && !fromRows.some((r) => sameKey(r.plugin, p))).map((p) => withState(p, true, false, used)),
    ...fromRows.map((r) => withState(r.plugin, true, r.custom, used)),
  ];
  const available = cataloguePlugins()
    .filter((p) => !installed.some((i) => sameKey(i, p)))
    .map((p) => withState(p, false, false, used));
  return { installed, available };
}

/** The workspace's plugin of this key, installed or available; undefined when neither. */
export async function workspacePlugin(db: Db, workspaceId: string, key: PluginKey): Promise<WorkspacePlugin | undefined> {
  const { installed, available } = await workspacePlugins(db, workspaceId);
  return [...installed, ...available].find((p) => sameKey(p, key));
}

/** Installs a catalogue plugin (a second install changes nothing). */
export async function installPlugin(db: Db, workspaceId: string, key: PluginKey): Promise<void> {
  await db
    .insertInto('workspace_dataplugins')
    .values({ id: newId(), workspace_id: workspaceId, plugin_type: key.pluginType, name: key.name, variant: key.variant ?? '', definition: null })
    .onConflict((oc) => oc.columns(['workspace_id', 'plugin_type', 'name', 'variant']).doNothing())
    .execute();
}

export async function removePlugin(db: Db, workspaceId: string, key: PluginKey): Promise<void> {
  await db
    .deleteFrom('workspace_dataplugins')
    .where('workspace_id', '=', workspaceId)
    .where('plugin_type', '=', key.pluginType)
    .where('name', '=', key.name)
    .where('variant', '=', key.variant ?? '')
    .execute();
}

/** Publishes custom plugins: each replaces the workspace's plugin of the same key (installed or custom). */
export async function publishPlugins(db: Db, workspaceId: string, plugins: readonly DiscoveredPlugin[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const plugin of plugins) await publishPlugin(trx, workspaceId, plugin);
  });
}

/** Publishes one custom plugin in the caller's transaction (a deployment's meltano.yml plugins). */
export async function publishPlugin(trx: Db, workspaceId: string, plugin: DiscoveredPlugin): Promise<void> {
  const definition = JSON.stringify(plugin);
  await trx
    .insertInto('workspace_dataplugins')
    .values({ id: newId(), workspace_id: workspaceId, plugin_type: plugin.pluginType, name: plugin.name, variant: plugin.variant ?? '', definition })
    .onConflict((oc) => oc.columns(['workspace_id', 'plugin_type', 'name', 'variant']).doUpdateSet({ definition }))
    .execute();
}

// A workspace's own plugins as the global catalogue (GET /api/dataplugins) names them: by their
// row's UUID, since two workspaces may publish plugins of the same type, name and variant.

/** A workspace's own (custom) plugin, with its global id and its workspace. */
export interface OwnPlugin {
  /** the row's UUID: the plugin's id in the global catalogue */
  globalId: string;
  workspaceId: string;
  plugin: WorkspacePlugin;
}

const ADMIN_ROLES = ['owner', 'editor'] as const;

type OwnPluginRow = { id: string; workspace_id: string; definition: Record<string, unknown> | null };

/** Own plugins of these rows, with the keys of the components of their workspaces, so canDelete is known. */
async function ownPluginsOf(db: Db, rows: readonly OwnPluginRow[]): Promise<OwnPlugin[]> {
  if (rows.length === 0) return [];
  const workspaceIds = [...new Set(rows.map((r) => r.workspace_id))];
  const components = await db.selectFrom('data_components').select(['workspace_id', 'plugin_type', 'plugin_name', 'variant']).where('workspace_id', 'in', workspaceIds).execute();
  return rows.flatMap((row) => {
    if (row.definition === null) return [];
    const plugin = cataloguePlugin(row.definition as unknown as DiscoveredPlugin, false);
    const used = components.filter((c) => c.workspace_id === row.workspace_id).map((c) => ({ pluginType: c.plugin_type, name: c.plugin_name, variant: c.variant }));
    return [{ globalId: row.id, workspaceId: row.workspace_id, plugin: withState(plugin, true, true, used) }];
  });
}

/** The own plugin of this global id, in whichever workspace it is; undefined for any other id. */
export async function findOwnPlugin(db: Db, id: string): Promise<OwnPlugin | undefined> {
  const rows = await db.selectFrom('workspace_dataplugins').select(['id', 'workspace_id', 'definition']).where('id', '=', id).where('definition', 'is not', null).execute();
  return (await ownPluginsOf(db, rows))[0];
}

/** The own plugins of every workspace the profile administers (their plugins are the admins' business), with the profile's role there. */
export async function ownPluginsAdministeredBy(db: Db, profileId: string): Promise<(OwnPlugin & { role: MemberRole })[]> {
  const rows = await db
    .selectFrom('workspace_dataplugins as p')
    .innerJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'p.workspace_id').on('m.profile_id', '=', profileId))
    .select(['p.id', 'p.workspace_id', 'p.definition', 'm.role'])
    .where('p.definition', 'is not', null)
    .where('m.role', 'in', ADMIN_ROLES)
    .orderBy('p.created')
    .orderBy('p.id')
    .execute();
  const roles = new Map(rows.map((r) => [r.id, r.role]));
  return (await ownPluginsOf(db, rows)).flatMap((own) => {
    const role = roles.get(own.globalId);
    return role ? [{ ...own, role }] : [];
  });
}

/** Whether any row, own plugin or installed catalogue plugin, has this id. */
export async function pluginIdTaken(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('workspace_dataplugins').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Whether the workspace already holds a plugin of this key (installed from the catalogue or its own). */
export async function workspaceHoldsPlugin(db: Db, workspaceId: string, key: PluginKey): Promise<boolean> {
  const row = await db
    .selectFrom('workspace_dataplugins')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('plugin_type', '=', key.pluginType)
    .where('name', '=', key.name)
    .where('variant', '=', key.variant ?? '')
    .executeTakeFirst();
  return row !== undefined;
}

/** Creates a workspace's own plugin at the given id; false when the id or the key was taken meanwhile (nothing written). */
export async function createOwnPlugin(db: Db, id: string, workspaceId: string, plugin: DiscoveredPlugin): Promise<boolean> {
  const inserted = await db
    .insertInto('workspace_dataplugins')
    .values({ id, workspace_id: workspaceId, plugin_type: plugin.pluginType, name: plugin.name, variant: plugin.variant ?? '', definition: JSON.stringify(plugin) })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Replaces an own plugin's definition (its type, name and variant stay: components name it by them). */
export async function updateOwnPlugin(db: Db, id: string, plugin: DiscoveredPlugin): Promise<void> {
  await db.updateTable('workspace_dataplugins').set({ definition: JSON.stringify(plugin) }).where('id', '=', id).where('definition', 'is not', null).execute();
}
