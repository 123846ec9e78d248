import { sql } from 'kysely';
import { z } from 'zod';
import { componentKeySensitivity, keepMaskedValues, settingValueError, type SettingRule } from '../../src/domain/pipelineRules';
import type { Db } from '../db/database';
import { badRequest, conflict, type FieldError } from '../http/errors';
import { credentialEntries, withoutCredentials } from '../oauth/credentials';
import { findCataloguePlugin } from '../plugins/catalogue';
import { createDataComponent, getDataComponent, listDataComponents, parsePluginReference, updateDataComponent, type DataComponentRow } from '../repositories/dataComponents';
import { workspacePlugins, type WorkspacePlugin } from '../repositories/dataPlugins';
import { installedReference, propertiesRecord } from './savePipeline';

// Creating and changing a workspace's data components (spec 001 §7; the Matatika reference's
// datacomponents): 'create datacomponent' (POST, or PUT at a chosen id) and 'update datacomponent'
// (PUT /datacomponents/{id}, or PUT at the workspace's path of an existing one) share these rules.

export const OBJECT_NAME = 'dataComponent';
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const NAME_MESSAGE = 'must start with a letter or digit and hold only letters, digits, _ . and -';

const componentName = z.string().max(200, 'must be at most 200 characters').regex(NAME, NAME_MESSAGE);

export const createComponentBody = z.object({
  name: componentName.nullish(),
  /** a plugin reference ('extractors/tap-demo--builtin') or a catalogue plugin's name */
  dataPlugin: z.string({ message: 'is required' }).max(500, 'is too long'),
  properties: propertiesRecord.nullish(),
});
type CreateComponentBody = z.output<typeof createComponentBody>;

const changes = { name: componentName.nullish(), properties: propertiesRecord.nullish() };
const changesSomething = (body: { name?: string | null | undefined; properties?: unknown }) => (body.name ?? undefined) !== undefined || (body.properties ?? undefined) !== undefined;
const NOTHING_TO_CHANGE = 'must change name or properties';

// An empty body (or none: a null body reads as one) changes nothing and is refused as such.
export const updateComponentBody = z.object(changes).refine(changesSomething, { message: NOTHING_TO_CHANGE, path: ['properties'] });
type UpdateComponentBody = z.output<typeof updateComponentBody>;

/**
 * The reference's create-or-update at a workspace's path: a component's body, its plugin needed
 * only to create (an existing component keeps its plugin; naming another is refused).
 */
export const putComponentBody = z.object({ ...changes, dataPlugin: z.string().max(500, 'is too long').nullish() });
type PutComponentBody = z.output<typeof putComponentBody>;

const refuse = (errors: FieldError[]) => badRequest(`Validation failed for object='${OBJECT_NAME}'`, errors);
const fieldError = (field: string, defaultMessage: string): FieldError => ({ field, objectName: OBJECT_NAME, defaultMessage });

/** An installed plugin by reference ('extractors/tap-demo[--builtin]') or by name (built-ins first). */
function pluginOf(entry: string, installed: readonly WorkspacePlugin[]): WorkspacePlugin | undefined {
  if (!parsePluginReference(entry)) return installed.find((p) => !p.custom && p.name === entry);
  const reference = installedReference(entry, installed);
  return reference === undefined ? undefined : installed.find((p) => p.id === reference);
}

/** Type errors of a component's own properties; a setting the plugin does not define is refused (Meltano would ignore it silently). */
function propertyErrors(plugin: { name: string; settings: readonly SettingRule[] } | undefined, properties: Record<string, unknown>): FieldError[] {
  return Object.entries(properties).flatMap(([key, value]) => {
    const setting = plugin?.settings.find((s) => s.name === key);
    if (!setting) return [fieldError(`properties.${key}`, `is not a setting of ${plugin?.name ?? 'this plugin'}`)];
    const message = settingValueError(setting, value);
    return message === undefined ? [] : [fieldError(`properties.${key}`, message)];
  });
}

/**
 * 'create datacomponent': a component of a plugin installed in the workspace; its name defaults to
 * the plugin's (suffixed -2, -3… when taken). At a chosen `id` (a UUID the caller checked is free
 * in this workspace), a 409 when anything else already has it.
 */
export async function createDataComponentAs(db: Db, workspaceId: string, body: CreateComponentBody, id?: string): Promise<DataComponentRow> {
  const { installed } = await workspacePlugins(db, workspaceId);
  const plugin = pluginOf(body.dataPlugin.trim(), installed);
  if (!plugin) throw refuse([fieldError('dataPlugin', 'names no plugin of the catalogue installed in this workspace')]);
  const properties = body.properties ?? {};
  const errors = propertyErrors(plugin, properties);
  if (errors.length > 0) throw refuse(errors);
  const existing = await listDataComponents(db, workspaceId);
  let name = body.name?.trim() || plugin.name;
  if (!body.name) for (let n = 2; existing.some((c) => c.name === name); n++) name = `${plugin.name}-${n}`;
  // another workspace's component, to this caller a free id: creating at it cannot be
  if (id !== undefined && (await getDataComponent(db, id))) throw conflict(`Data component ${id} already exists`);
  const created = await createDataComponent(db, workspaceId, { ...(id === undefined ? {} : { id }), name, pluginType: plugin.pluginType, pluginName: plugin.name, variant: plugin.variant, properties });
  if (!created.ok) throw refuse([fieldError('name', created.problem)]);
  return created.component;
}

/**
 * 'update datacomponent': changes a component's name and properties (a sensitive one sent back as
 * '***' is kept). Pipelines name their components, so a component a pipeline uses keeps its name.
 */
export async function updateDataComponentAs(db: Db, component: DataComponentRow, body: UpdateComponentBody): Promise<DataComponentRow> {
  const plugin = findCataloguePlugin(component.plugin_type, component.plugin_name, component.variant);
  // OAuth credentials are the token exchange's to write (routes/tokens.ts): a form never sends or clears them
  const sent = body.properties ? withoutCredentials(body.properties) : undefined;
  const kept = sent ? keepMaskedValues(sent, component.properties, componentKeySensitivity(plugin?.settings ?? [])) : undefined;
  const errors = kept ? propertyErrors(plugin, kept) : [];
  const properties = kept ? { ...kept, ...credentialEntries(component.properties) } : undefined;
  const name = body.name?.trim();
  if (name !== undefined && name !== component.name) {
    const users = await db.selectFrom('pipelines').select('name').where('workspace_id', '=', component.workspace_id).where(sql<boolean>`data_components @> ${JSON.stringify([component.name])}::jsonb`).execute();
    if (users.length > 0) errors.push(fieldError('name', `is used by pipeline ${users.map((u) => u.name).join(', ')}: a used component keeps its name`));
  }
  if (errors.length > 0) throw refuse(errors);
  const updated = await updateDataComponent(db, component.id, { ...(name === undefined ? {} : { name }), ...(properties === undefined ? {} : { properties }) });
  if (!updated) throw refuse([fieldError('id', 'names no data component')]);
  if (!updated.ok) throw refuse([fieldError('name', updated.problem)]);
  return updated.component;
}

/**
 * The reference's PUT at a workspace's path, for an existing component of the workspace: an
 * update, whose plugin (if the body names one) must be the component's own.
 */
export async function putExistingDataComponent(db: Db, component: DataComponentRow, body: PutComponentBody): Promise<DataComponentRow> {
  const named = body.dataPlugin?.trim();
  if (named) {
    const reference = parsePluginReference(named);
    const same = reference
      ? reference.pluginType === component.plugin_type && reference.pluginName === component.plugin_name && (reference.variant === null || reference.variant === component.variant)
      : named === component.plugin_name;
    if (!same) throw refuse([fieldError('dataPlugin', 'cannot change: a component keeps the plugin it was made from')]);
  }
  if (!changesSomething(body)) throw refuse([fieldError('properties', NOTHING_TO_CHANGE)]);
  return updateDataComponentAs(db, component, body);
}

/** The reference's PUT at a workspace's path, for an id no component has: a create, which needs the plugin. */
export async function putNewDataComponent(db: Db, workspaceId: string, id: string, body: PutComponentBody): Promise<DataComponentRow> {
  const dataPlugin = body.dataPlugin?.trim();
  if (!dataPlugin) throw refuse([fieldError('dataPlugin', 'is required')]);
  return createDataComponentAs(db, workspaceId, { name: body.name, dataPlugin, properties: body.properties }, id);
}
