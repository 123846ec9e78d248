import { DEPLOY_TRIGGER } from '../../src/domain/pipelineConstants';
import { pluginReference } from '../../src/domain/discovery';
import type { Db } from '../db/database';
import { builtinPlugin, findCataloguePlugin } from '../plugins/catalogue';
import { createDataComponent, listDataComponents, updateDataComponent } from '../repositories/dataComponents';
import { installPlugin, publishPlugin } from '../repositories/dataPlugins';
import { createDataStore, updateDataStore, type DataStoreRow } from '../repositories/dataStores';
import { enqueueStoreCheck } from './storeChecks';
import { HttpError } from '../http/errors';
import { notifyPipelineActivity } from '../notifications/pipelineEvents';
import { newId } from '../repositories/ids';
import { findPipelineByName, type PipelineRow } from '../repositories/pipelines';
import { publishWithTask } from '../services/publishDataset';
import { completePipelineTasks, savePipeline } from '../services/savePipeline';
import * as setupTasks from '../setupTasks';
import { DEFAULT_STORE_PLUGIN, ensureDefaultStore } from '../stores/defaultStore';
import { DEFAULT_STORE_LOADER } from '../stores/storeKinds';
import { yamlField, type ChannelDefinition, type DataStoreDefinition, type DatasetDefinition, type FieldProblem, type PipelineDefinition } from './deployDefinitions';
import { MELTANO_FILE, type RepositoryPlugin } from './meltanoPlugins';
import { WORKSPACE_FILE, type WorkspaceConfig } from './workspaceConfig';

// Applies a deployment's checked definitions to the workspace in ONE transaction, through the same
// functions the APIs use: savePipeline (pipelines API) and publishDataset (publish API), with the
// setup tasks those routes complete; before them, in this order, workspace.yml's settings, the data
// stores, the default store, meltano.yml's plugins as data components, and the source channels. The rules that need the database (component names, triggers,
// required settings, the query guard, channels, aliases) are met here; any broken rule is a
// FieldProblem and the whole transaction is rolled back, so a deployment applies all or nothing.
// A dry run (some files were invalid already) always rolls back: it only finds the other problems.

export interface Deployed {
  /** empty when everything was applied; otherwise nothing was */
  problems: FieldProblem[];
  /** one line per pipeline and dataset created or updated, then the summary */
  lines: string[];
}

class Refused extends Error {}

/** The field errors of an API's 400, or undefined for any other failure (rethrown). */
function fieldProblems(kind: 'pipelines' | 'datasets', file: string, error: unknown): FieldProblem[] | undefined {
  if (!(error instanceof HttpError) || error.status !== 400) return undefined;
  if (error.errors.length === 0) return [{ file, field: '(file)', message: error.message }];
  return error.errors.map((e) => ({ file, field: yamlField(kind, e.field), message: e.defaultMessage }));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summary(pipelines: { created: number; updated: number }, datasets: { created: number; updated: number }): string {
  const part = (counts: { created: number; updated: number }, word: string) => {
    const total = counts.created + counts.updated;
    const detail = [counts.created > 0 ? `${counts.created} new` : '', counts.updated > 0 ? `${counts.updated} updated` : ''].filter(Boolean).join(', ');
    return `${plural(total, word)}${detail ? ` (${detail})` : ''}`;
  };
  return `Deployed ${part(pipelines, 'pipeline')} and ${part(datasets, 'dataset')}.`;
}

export interface ApplyRequest {
  workspaceId: string;
  /** who deployed: the creator of new pipelines, the actor of setup tasks and notifications */
  profileId: string | null;
  pipelines: readonly PipelineDefinition[];
  datasets: readonly DatasetDefinition[];
  /** the deployment job and the runner whose lease it runs under: nothing is applied once another runner took it over */
  lease?: { jobId: string; owner: string | null };
  /** check against the database only, and roll back even when nothing is wrong (other definitions were invalid already) */
  dryRun?: boolean;
  /** workspace.yml: its name, domains, app_properties and default_data_store are applied */
  workspace?: WorkspaceConfig;
  dataStores?: readonly DataStoreDefinition[];
  /** meltano.yml's plugins: each one a data component */
  plugins?: readonly RepositoryPlugin[];
  channels?: readonly ChannelDefinition[];
  /** a real meltano the jobs would find on their PATH (realMeltanoOnPath): Python plugins then run through it */
  realMeltano?: string | null;
}

/** The variant a meltano.yml plugin gets when it has none and its name is a built-in's. */
export const CUSTOM_VARIANT = 'custom';

/** The name of Matatika's managed store: a repository naming it (default_data_store, data_components) means the workspace's own managed store. */
export const MATATIKA_WAREHOUSE = 'Warehouse';

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const listed = (names: readonly string[]) => `${names.slice(0, 20).join(', ')}${names.length > 20 ? `, and ${names.length - 20} more` : ''}`;

export async function applyDefinitions(db: Db, request: ApplyRequest): Promise<Deployed> {
  const { workspaceId, profileId } = request;
  const problems: FieldProblem[] = [];
  const lines: string[] = [];
  const pipelineCounts = { created: 0, updated: 0 };
  const datasetCounts = { created: 0, updated: 0 };
  const updatedPipelines: PipelineRow[] = [];
  const savedStores: DataStoreRow[] = [];

  const attempt = async <T>(kind: 'pipelines' | 'datasets', file: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      const found = fieldProblems(kind, file, error);
      if (!found) throw error;
      problems.push(...found);
      return undefined;
    }
  };

  try {
    await db.transaction().execute(async (trx) => {
      // Several server processes may share the queue: the job row stays locked while this
      // transaction writes, and a job whose lease another runner recovered applies nothing.
      if (request.lease) {
        const owned = await trx
          .selectFrom('jobs')
          .select('id')
          .where('id', '=', request.lease.jobId)
          .where('status', '=', 'RUNNING')
          .where('lease_owner', request.lease.owner === null ? 'is' : '=', request.lease.owner)
          .forUpdate()
          .executeTakeFirst();
        if (!owned) throw new Error("Nothing deployed: this runner no longer holds the job's lease.");
      }
      await applyWorkspaceSettings(trx, request, lines);
      const stores = await applyDataStores(trx, request, problems, lines, savedStores);
      const defaultStore = await applyDefaultStore(trx, request, stores, problems, lines);
      await applyPlugins(trx, request, problems, lines);
      await applyChannels(trx, request, lines);
      const pipelines = await pipelinesWithStores(trx, request, stores, defaultStore, problems);

      // Triggers may name pipelines of this same deployment that do not exist yet: the first pass
      // saves every pipeline with those entries standing in as 'deploy' (always valid, same list
      // positions, so a message names the right index); the second saves the real list once every
      // name exists.
      const deployedNames = new Set(pipelines.map((p) => p.name.toLowerCase()));
      const saved = new Map<PipelineDefinition, { row: PipelineRow; existed: boolean }>();
      for (const definition of pipelines) {
        const existing = await findPipelineByName(trx, workspaceId, definition.name);
        const own = definition.name.toLowerCase();
        const triggers = definition.body.triggeredBy ?? [];
        const standIns = triggers.map((t) => (t.trim().toLowerCase() !== own && deployedNames.has(t.trim().toLowerCase()) ? DEPLOY_TRIGGER : t));
        const row = await attempt('pipelines', definition.file, () =>
          savePipeline(trx, { workspaceId, id: existing?.id ?? newId(), existing, body: { ...definition.body, triggeredBy: standIns }, draft: false, createdBy: profileId, unprefixed: true }),
        );
        if (row) saved.set(definition, { row, existed: existing !== undefined });
      }
      for (const definition of pipelines) {
        const first = saved.get(definition);
        const triggers = definition.body.triggeredBy ?? [];
        if (!first || triggers.length === 0) continue;
        const row = await attempt('pipelines', definition.file, () =>
          savePipeline(trx, { workspaceId, id: first.row.id, existing: first.row, body: definition.body, draft: false, createdBy: profileId }),
        );
        if (row) saved.set(definition, { row, existed: first.existed });
      }

      const datasetResults: { definition: DatasetDefinition; created: boolean }[] = [];
      for (const definition of request.datasets) {
        let channelId: string | null = null;
        if (definition.source !== null) {
          // a source channel (ChannelML's, created above) before a list of the same name
          const named = await trx
            .selectFrom('channels')
            .select(['id', 'type'])
            .where('workspace_id', '=', workspaceId)
            .where('name', '=', definition.source)
            .orderBy('created')
            .orderBy('id')
            .execute();
          const channel = named.find((c) => c.type === 'SOURCE') ?? named[0];
          if (!channel) {
            problems.push({ file: definition.file, field: 'source', message: `names no channel of this workspace ('${definition.source.slice(0, 80)}')` });
            continue;
          }
          channelId = channel.id;
        }
        const published = await attempt('datasets', definition.file, () => publishWithTask(trx, workspaceId, { ...definition.body, channelId }, profileId));
        if (!published) continue;
        datasetResults.push({ definition, created: published.created });
      }

      if (problems.length > 0 || request.dryRun) throw new Refused();

      for (const definition of pipelines) {
        const result = saved.get(definition);
        if (!result) continue;
        await completePipelineTasks(trx, result.row, profileId);
        if (result.existed) {
          pipelineCounts.updated += 1;
          updatedPipelines.push(result.row);
        } else pipelineCounts.created += 1;
        lines.push(`${result.existed ? 'Updated' : 'Created'} pipeline ${result.row.name} from ${definition.file}.`);
      }
      for (const { definition, created } of datasetResults) {
        datasetCounts[created ? 'created' : 'updated'] += 1;
        lines.push(`${created ? 'Created' : 'Updated'} dataset ${definition.alias} from ${definition.file}.`);
      }
      lines.push(...(await keptLines(trx, request)));
    });
  } catch (error) {
    if (error instanceof Refused) return { problems, lines: [] };
    throw error;
  }

  // As the pipelines API does after its transaction: a workspace with a pipeline has a default
  // store, and a saved pipeline's watchers hear of it.
  if (pipelineCounts.created > 0) await ensureDefaultStore(db, workspaceId);
  // As the data stores API does: a store saved for use is checked (queued once it is committed).
  for (const store of savedStores) await enqueueStoreCheck(db, store, profileId);
  for (const row of updatedPipelines) {
    await notifyPipelineActivity(db, row, `A deployment saved pipeline ${row.name}.`, { profileId: profileId ?? '', name: null });
  }
  lines.push(summary(pipelineCounts, datasetCounts));
  return { problems: [], lines };
}

/** workspace.yml's name, domains and app_properties (merged over the workspace's own: a key the file leaves out keeps its value). */
async function applyWorkspaceSettings(trx: Db, request: ApplyRequest, lines: string[]): Promise<void> {
  const config = request.workspace;
  if (!config) return;
  const workspace = await trx.selectFrom('workspaces').select(['name', 'domains', 'app_properties']).where('id', '=', request.workspaceId).executeTakeFirstOrThrow();
  const changes: { name?: string; domains?: string; app_properties?: string } = {};
  const said: string[] = [];
  if (config.name !== undefined && config.name !== workspace.name) {
    changes.name = config.name;
    said.push('name');
  }
  if (config.domains !== undefined && !sameJson(config.domains, workspace.domains)) {
    changes.domains = JSON.stringify(config.domains);
    said.push('domains');
  }
  if (config.appProperties !== undefined) {
    const merged = { ...workspace.app_properties, ...config.appProperties };
    if (!sameJson(merged, workspace.app_properties)) {
      changes.app_properties = JSON.stringify(merged);
      said.push(`app_properties (${Object.keys(config.appProperties).length})`);
    }
  }
  if (said.length === 0) return;
  await trx.updateTable('workspaces').set({ ...changes, updated_at: new Date() }).where('id', '=', request.workspaceId).execute();
  lines.push(`Updated the workspace's ${said.join(', ')} from ${config.overlay ? `${WORKSPACE_FILE} and ${config.overlay}` : WORKSPACE_FILE}.`);
}

/** DataStoreML: each store created or, when its settings changed, updated (and checked again once committed). The workspace's stores after it. */
async function applyDataStores(trx: Db, request: ApplyRequest, problems: FieldProblem[], lines: string[], saved: DataStoreRow[]): Promise<DataStoreRow[]> {
  const all = () => trx.selectFrom('data_stores').selectAll().where('workspace_id', '=', request.workspaceId).orderBy('name').execute();
  const existing = await all();
  for (const definition of request.dataStores ?? []) {
    const same = existing.find((s) => s.name === definition.name);
    if (same?.managed) {
      problems.push({ file: definition.file, field: 'name (the file name)', message: "is the workspace's managed store: its settings are not a repository's to set" });
      continue;
    }
    if (same && same.data_plugin === definition.dataPlugin && sameJson(same.properties, definition.properties) && !same.draft) continue;
    const written = same
      ? await updateDataStore(trx, same.id, { name: definition.name, properties: definition.properties, draft: false })
      : await createDataStore(trx, request.workspaceId, { name: definition.name, dataPlugin: definition.dataPlugin, properties: definition.properties, draft: false });
    if (!written?.ok) {
      problems.push({ file: definition.file, field: 'name (the file name)', message: 'A data store with this name already exists in the workspace' });
      continue;
    }
    await setupTasks.dataStoreSaved(trx, written.store, request.profileId);
    saved.push(written.store);
    lines.push(`${same ? 'Updated' : 'Created'} data store ${definition.name} from ${definition.file}; its connection is checked next.`);
  }
  return all();
}

/** The store a repository's name means: its own store of that name, else Matatika's 'Warehouse' is the workspace's managed store. */
function storeNamed(stores: readonly DataStoreRow[], name: string): DataStoreRow | undefined {
  return stores.find((s) => s.name === name) ?? (name === MATATIKA_WAREHOUSE ? stores.find((s) => s.managed && s.data_plugin === DEFAULT_STORE_PLUGIN) : undefined);
}

/** workspace.yml's default_data_store made the workspace's default store; the default store after it. */
async function applyDefaultStore(trx: Db, request: ApplyRequest, stores: DataStoreRow[], problems: FieldProblem[], lines: string[]): Promise<DataStoreRow | undefined> {
  const current = stores.find((s) => s.is_default);
  const wanted = request.workspace?.defaultDataStore;
  if (wanted === undefined) return current;
  const file = request.workspace?.overlay ?? WORKSPACE_FILE;
  const store = storeNamed(stores, wanted);
  if (!store) {
    problems.push({ file, field: 'default_data_store', message: `names no data store of this workspace or the repository ('${wanted.slice(0, 80)}')` });
    return current;
  }
  if (store.is_default) return store;
  await trx.updateTable('data_stores').set({ is_default: false }).where('workspace_id', '=', request.workspaceId).where('is_default', '=', true).execute();
  const made = await trx.updateTable('data_stores').set({ is_default: true }).where('id', '=', store.id).returningAll().executeTakeFirstOrThrow();
  for (const s of stores) s.is_default = s.id === made.id;
  lines.push(`The default data store is now ${made.name} (default_data_store): pipelines loading through target-store load into it from their next run.`);
  return made;
}

/**
 * meltano.yml's plugins as data components: a built-in plugin runs here; any other is installed
 * from the catalogue or published from its meltano.yml entry as a custom plugin, and is configure
 * only (a Python package: it runs only where a real `meltano` can install it), which its line says.
 */
async function applyPlugins(trx: Db, request: ApplyRequest, problems: FieldProblem[], lines: string[]): Promise<void> {
  const plugins = request.plugins ?? [];
  if (plugins.length === 0) return;
  const components = await listDataComponents(trx, request.workspaceId);
  /** the plugin an entry is made of: its own definition, or its parent's (inherit_from), up a few levels */
  const rootOf = (plugin: RepositoryPlugin): RepositoryPlugin => {
    let at = plugin;
    for (let i = 0; i < 10 && at.definition === null; i++) {
      const parent = plugins.find((p) => p.name === at.base && p.pluginType === at.pluginType);
      if (!parent || parent === at) break;
      at = parent;
    }
    return at;
  };
  for (const plugin of plugins) {
    const root = rootOf(plugin);
    const variant = plugin.variant ?? root.variant;
    let pluginName = root.base;
    let pluginVariant: string | null = variant;
    let runs = false;
    const builtin = builtinPlugin(root.base, variant);
    const catalogue = findCataloguePlugin(plugin.pluginType, root.base, variant);
    if (builtin && (variant === 'builtin' || !root.definition?.pipUrl)) {
      pluginVariant = builtin.variant;
      runs = true;
    } else if (catalogue && !catalogue.builtin && !(root.definition?.pipUrl && root.definition.pipUrl !== catalogue.pipUrl && variant === null)) {
      await installPlugin(trx, request.workspaceId, { pluginType: catalogue.pluginType, name: catalogue.name, variant: catalogue.variant });
      pluginName = catalogue.name;
      pluginVariant = catalogue.variant;
    } else if (root.definition) {
      // A Python plugin named like a built-in, without a variant (tap-postgres with a pip_url),
      // would otherwise be taken for ours and run as ours: it is the 'custom' variant.
      const definition = root.definition.variant === null && builtinPlugin(root.definition.name) ? { ...root.definition, variant: CUSTOM_VARIANT } : root.definition;
      await publishPlugin(trx, request.workspaceId, definition);
      pluginName = definition.name;
      pluginVariant = definition.variant;
    } else {
      problems.push({ file: MELTANO_FILE, field: `${plugin.field}.inherit_from`, message: `names no plugin of this meltano.yml or of the catalogue ('${plugin.base}')` });
      continue;
    }
    const reference = pluginReference(plugin.pluginType, pluginName, pluginVariant);
    const how = runs
      ? 'runs here'
      : request.realMeltano
        ? `a Python plugin: the meltano at ${request.realMeltano} installs and runs it`
        : 'configure only: a Python plugin, and no real meltano is on the runner\'s PATH to install and run it';
    const same = components.find((c) => c.name === plugin.name);
    if (same && (same.plugin_type !== plugin.pluginType || same.plugin_name !== pluginName)) {
      problems.push({ file: MELTANO_FILE, field: `${plugin.field}.name`, message: `a data component named ${plugin.name} exists already, made from ${pluginReference(same.plugin_type, same.plugin_name, same.variant)}` });
      continue;
    }
    if (same) {
      const properties = { ...same.properties, ...plugin.properties };
      if (!sameJson(properties, same.properties)) {
        await updateDataComponent(trx, same.id, { properties });
        lines.push(`Updated data component ${plugin.name} (${reference}, ${how}) from ${MELTANO_FILE}.`);
      }
      continue;
    }
    const created = await createDataComponent(trx, request.workspaceId, { name: plugin.name, pluginType: plugin.pluginType, pluginName, variant: pluginVariant, properties: plugin.properties });
    if (!created.ok) {
      problems.push({ file: MELTANO_FILE, field: `${plugin.field}.name`, message: 'A data component with this name already exists in the workspace' });
      continue;
    }
    components.push(created.component);
    lines.push(`Created data component ${plugin.name} (${reference}, ${how}) from ${MELTANO_FILE}.`);
  }
}

/** ChannelML: source channels created, or updated when their description or picture changed. */
async function applyChannels(trx: Db, request: ApplyRequest, lines: string[]): Promise<void> {
  for (const definition of request.channels ?? []) {
    const existing = await trx
      .selectFrom('channels')
      .selectAll()
      .where('workspace_id', '=', request.workspaceId)
      .where('name', '=', definition.name)
      .where('type', '=', 'SOURCE')
      .orderBy('created')
      .orderBy('id')
      .executeTakeFirst();
    if (existing) {
      if (existing.description === definition.description && existing.picture === definition.picture) continue;
      await trx.updateTable('channels').set({ description: definition.description, picture: definition.picture, last_modified: new Date() }).where('id', '=', existing.id).execute();
      lines.push(`Updated channel ${definition.name} from ${definition.file}.`);
      continue;
    }
    await trx
      .insertInto('channels')
      .values({ id: newId(), workspace_id: request.workspaceId, name: definition.name, description: definition.description, picture: definition.picture, type: 'SOURCE', scope: 'WORKSPACE', creator_id: request.profileId })
      .execute();
    lines.push(`Created channel ${definition.name} from ${definition.file}.`);
  }
}

/**
 * The pipelines with every data_components entry that names a data store (Matatika's Warehouse,
 * a store of the repository or the workspace) replaced by the loader of the default store
 * (target-store), and their properties of that entry renamed with it. A store that is not the
 * default cannot be loaded into here: a problem naming the entry.
 */
async function pipelinesWithStores(trx: Db, request: ApplyRequest, stores: readonly DataStoreRow[], defaultStore: DataStoreRow | undefined, problems: FieldProblem[]): Promise<PipelineDefinition[]> {
  const components = await listDataComponents(trx, request.workspaceId);
  const loader = components.find((c) => c.plugin_type === 'LOADER' && c.plugin_name === DEFAULT_STORE_LOADER)?.name ?? `loaders/${DEFAULT_STORE_LOADER}`;
  const loaderName = loader.startsWith('loaders/') ? DEFAULT_STORE_LOADER : loader;
  return request.pipelines.flatMap((definition) => {
    const entries = definition.body.dataComponents;
    if (!entries) return [definition];
    let properties = definition.body.properties;
    let refused = false;
    const mapped = entries.map((raw, index) => {
      const entry = raw.trim();
      if (components.some((c) => c.name === entry)) return raw;
      const store = storeNamed(stores, entry);
      if (!store) return raw;
      if (store.id !== defaultStore?.id) {
        problems.push({ file: definition.file, field: `data_components.${index}`, message: `names the data store ${entry}, which is not the workspace's default store: pipelines load only into the default store here (name it default_data_store in workspace.yml)` });
        refused = true;
        return raw;
      }
      if (properties) properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key.startsWith(`${entry}.`) ? `${loaderName}.${key.slice(entry.length + 1)}` : key, value]));
      return loader;
    });
    // refused already: saving it too would only repeat the problem as an unknown component
    if (refused) return [];
    return [{ ...definition, body: { ...definition.body, dataComponents: mapped, ...(properties ? { properties } : {}) } }];
  });
}

/** What the workspace holds that the repository no longer (or never) defined: kept, and said. */
async function keptLines(trx: Db, request: ApplyRequest): Promise<string[]> {
  const names = new Set(request.pipelines.map((p) => p.name.trim().toLowerCase()));
  const aliases = new Set(request.datasets.map((d) => d.alias));
  const [pipelines, datasets] = await Promise.all([
    trx.selectFrom('pipelines').select('name').where('workspace_id', '=', request.workspaceId).where('draft', '=', false).orderBy('name').execute(),
    trx.selectFrom('datasets').select(['alias', 'title']).where('workspace_id', '=', request.workspaceId).orderBy('alias').execute(),
  ]);
  const keptPipelines = pipelines.map((p) => p.name).filter((n) => !names.has(n.trim().toLowerCase()));
  const keptDatasets = datasets.filter((d) => d.alias === null || !aliases.has(d.alias)).map((d) => d.alias ?? d.title);
  const out: string[] = [];
  const why = 'a deployment never deletes; delete it in the app if it should go';
  if (keptPipelines.length > 0) out.push(`Kept ${plural(keptPipelines.length, 'pipeline')} the repository does not define (${why}): ${listed(keptPipelines)}.`);
  if (keptDatasets.length > 0) out.push(`Kept ${plural(keptDatasets.length, 'dataset')} the repository does not define (${why}): ${listed(keptDatasets)}.`);
  return out;
}
