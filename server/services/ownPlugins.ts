import { z } from 'zod';
import { DISCOVERY_SECTIONS, readDiscovery, type DiscoveredPlugin } from '../../src/domain/discovery';
import { PLUGIN_TYPES, type PluginType } from '../../src/domain/resources';
import type { Db } from '../db/database';
import { badRequest, conflict, type FieldError } from '../http/errors';
import { builtinPlugin } from '../plugins/catalogue';
import { pluginEntry } from '../plugins/discovery';
import { createOwnPlugin, findOwnPlugin, pluginIdTaken, updateOwnPlugin, workspaceHoldsPlugin, type OwnPlugin } from '../repositories/dataPlugins';
import { administeredWorkspaceIds } from '../repositories/workspaces';

// A workspace's own plugin through the global catalogue (the Matatika reference's PUT
// /api/dataplugins/{id}, issue 38): created at the id its draft carries, in a workspace the caller
// administers, and changed later. The body is the reference's Dataplugin (name, description,
// repositoryUrl, settings) with our fields beside it, and is read by the same rules as a
// discovery.yml entry (src/domain/discovery.ts), so a plugin published either way is the same.

export const OBJECT_NAME = 'dataplugin';

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

const settingBody = z.looseObject({
  name: text(200),
  label: text(500).nullish(),
  kind: text(50).nullish(),
  description: text(20_000).nullish(),
  value: z.unknown().optional(),
  placeholder: text(500).nullish(),
  env: text(255).nullish(),
  documentation: text(2_000).nullish(),
  options: z.array(z.looseObject({ label: text(500).nullish(), value: z.unknown() })).max(1_000, 'must hold at most 1000 options').nullish(),
  required: z.union([z.boolean(), text(10)]).nullish(),
  sensitive: z.boolean().nullish(),
  /** the reference's word for a sensitive setting */
  protected: z.boolean().nullish(),
  hidden: z.boolean().nullish(),
});

/** The body of 'create dataplugin' and 'update dataplugin'; what it does not name is ignored (a plugin read back may be sent as it is). */
export const ownPluginBody = z.object({
  /** the workspace the plugin is for (create only; default: the caller's default workspace) */
  workspace: text(100).nullish(),
  pluginType: z.enum(PLUGIN_TYPES, { message: `must be one of ${PLUGIN_TYPES.join(', ')}` }).nullish(),
  name: text(100).nullish(),
  variant: text(100).nullish(),
  label: text(500).nullish(),
  namespace: text(200).nullish(),
  description: text(20_000).nullish(),
  docs: text(2_000).nullish(),
  repositoryUrl: text(2_000).nullish(),
  logoUrl: text(2_000).nullish(),
  pipUrl: text(2_000).nullish(),
  executable: text(500).nullish(),
  capabilities: z.array(text(200)).max(200, 'must hold at most 200 entries').nullish(),
  commands: z.record(z.string(), z.unknown()).nullish(),
  settings: z.array(settingBody).max(500, 'must hold at most 500 settings').nullish(),
  hidden: z.boolean().nullish(),
});
type OwnPluginBody = z.output<typeof ownPluginBody>;

const fieldError = (field: string, defaultMessage: string): FieldError => ({ field, objectName: OBJECT_NAME, defaultMessage });
const refuse = (errors: FieldError[]) => badRequest(`Validation failed for object='${OBJECT_NAME}'`, errors);

/** The body's fields as entry keys: a field left out keeps what `base` holds, null clears it. */
function bodyEntry(body: OwnPluginBody, base: Record<string, unknown>): Record<string, unknown> {
  const entry = { ...base };
  const set = (key: string, value: unknown) => {
    if (value !== undefined) entry[key] = value;
  };
  set('name', body.name);
  set('variant', body.variant);
  set('label', body.label);
  set('namespace', body.namespace);
  set('description', body.description);
  set('docs', body.docs);
  set('repo', body.repositoryUrl);
  set('logo_url', body.logoUrl);
  set('pip_url', body.pipUrl);
  set('executable', body.executable);
  set('capabilities', body.capabilities);
  set('commands', body.commands);
  set('hidden', body.hidden);
  if (body.settings !== undefined) {
    entry.settings = body.settings?.map(({ protected: isProtected, sensitive, ...setting }) => ({ ...setting, sensitive: sensitive ?? isProtected ?? null }));
  }
  return entry;
}

/** Discovery's keys back as the body names them. */
const BODY_FIELD: Readonly<Record<string, string>> = { repo: 'repositoryUrl', logo_url: 'logoUrl', pip_url: 'pipUrl' };

/** The definition the entry makes, read as discovery.yml is; a 400 with one error per problem. */
function definitionOf(pluginType: PluginType, entry: Record<string, unknown>): DiscoveredPlugin {
  const section = Object.entries(DISCOVERY_SECTIONS).find(([, type]) => type === pluginType)?.[0] ?? 'extractors';
  const { plugins, errors } = readDiscovery({ [section]: [entry] });
  const plugin = plugins[0];
  if (errors.length > 0 || !plugin) {
    throw refuse(errors.map((e) => fieldError(e.field.replace(/^[a-z_]+/, (key) => BODY_FIELD[key] ?? key), e.defaultMessage)));
  }
  return plugin;
}

/** A built-in plugin's name is not another plugin's without a variant of its own: pipelines name the built-in by it. */
function replacesBuiltin(plugin: DiscoveredPlugin): boolean {
  const builtin = builtinPlugin(plugin.name);
  return builtin !== undefined && builtin.pluginType === plugin.pluginType && (plugin.variant === null || plugin.variant === builtin.variant);
}

/** The workspace the body names, or the caller's default one: it must be one they administer. */
async function workspaceFor(db: Db, body: OwnPluginBody, caller: { profileId: string; defaultWorkspaceId: string | null }): Promise<string> {
  const administered = await administeredWorkspaceIds(db, caller.profileId);
  const named = body.workspace?.trim() || undefined;
  if (named !== undefined) {
    // the same words whether the workspace does not exist or is not the caller's to administer
    if (!administered.includes(named.toLowerCase())) throw refuse([fieldError('workspace', 'names no workspace you administer')]);
    return named.toLowerCase();
  }
  if (caller.defaultWorkspaceId !== null && administered.includes(caller.defaultWorkspaceId)) return caller.defaultWorkspaceId;
  throw refuse([fieldError('workspace', 'is required: the id of a workspace you administer, where the plugin is kept')]);
}

/**
 * 'create dataplugin': the plugin, kept as the workspace's own at `id`. 400 with every field error;
 * 409 when the id is taken (by anything, anywhere) or the workspace already has a plugin of this
 * type, name and variant.
 */
export async function createOwnPluginAs(db: Db, id: string, body: OwnPluginBody, caller: { profileId: string; defaultWorkspaceId: string | null }): Promise<OwnPlugin> {
  const missing = [body.pluginType ? undefined : fieldError('pluginType', 'is required'), body.name ? undefined : fieldError('name', 'is required')].filter((e) => e !== undefined);
  if (missing.length > 0 || !body.pluginType) throw refuse(missing);
  const workspaceId = await workspaceFor(db, body, caller);
  const plugin = definitionOf(body.pluginType, bodyEntry(body, {}));
  if (replacesBuiltin(plugin)) throw refuse([fieldError('name', `${plugin.name} is a built-in plugin and cannot be replaced: give yours a variant of its own`)]);
  if (await pluginIdTaken(db, id)) throw conflict(`Dataplugin ${id} already exists`);
  if (await workspaceHoldsPlugin(db, workspaceId, { pluginType: plugin.pluginType, name: plugin.name, variant: plugin.variant })) {
    throw conflict(`The workspace already has the plugin ${plugin.name}${plugin.variant ? ` (${plugin.variant})` : ''}`, [fieldError('name', 'is already a plugin of this workspace: change that one at its own address')]);
  }
  if (!(await createOwnPlugin(db, id, workspaceId, plugin))) throw conflict(`Dataplugin ${id} already exists`);
  const created = await findOwnPlugin(db, id);
  if (!created) throw conflict(`Dataplugin ${id} already exists`);
  return created;
}

/**
 * 'update dataplugin': the fields the body names replace the plugin's (null clears one, settings
 * replace the list). Its type, name, variant and workspace stay: components name the plugin by
 * them, so a body that changes one is a 400 naming it.
 */
export async function updateOwnPluginAs(db: Db, own: OwnPlugin, body: OwnPluginBody): Promise<OwnPlugin> {
  const current = own.plugin;
  const fixed: [keyof OwnPluginBody, string, string][] = [
    ['pluginType', current.pluginType, 'cannot change: data components name the plugin by its type'],
    ['name', current.name, 'cannot change: data components name the plugin by it'],
    ['variant', current.variant ?? '', 'cannot change: data components name the plugin by it'],
    // ids compare without regard to case, as the database stores them
    ['workspace', own.workspaceId.toLowerCase(), 'cannot change: a plugin stays in the workspace it was made for'],
  ];
  const errors = fixed.flatMap(([field, now, message]) => {
    const sent = body[field];
    if (sent === undefined) return [];
    const value = typeof sent === 'string' ? sent.trim() : '';
    return (field === 'workspace' ? value.toLowerCase() : value) === now ? [] : [fieldError(field, message)];
  });
  if (errors.length > 0) throw refuse(errors);
  const { name: _name, variant: _variant, ...changes } = body;
  const plugin = definitionOf(current.pluginType, bodyEntry(changes, pluginEntry(current)));
  await updateOwnPlugin(db, own.globalId, plugin);
  return (await findOwnPlugin(db, own.globalId)) ?? own;
}
