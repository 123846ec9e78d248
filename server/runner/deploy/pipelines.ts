import { DEPLOY_TRIGGER } from '../../../src/domain/pipelineConstants';
import type { Db } from '../../db/database';
import { listDataComponents } from '../../repositories/dataComponents';
import type { DataStoreRow } from '../../repositories/dataStores';
import { newId } from '../../repositories/ids';
import { findPipelineByName, type PipelineRow } from '../../repositories/pipelines';
import { completePipelineTasks, savePipeline } from '../../services/savePipeline';
import { DEFAULT_STORE_LOADER } from '../../stores/storeKinds';
import type { FieldProblem, PipelineDefinition } from '../deployDefinitions';
import { storeNamed } from './stores';
import type { ApplyRequest, Attempt } from './shared';

type SavedPipelines = Map<PipelineDefinition, { row: PipelineRow; existed: boolean }>;

/**
 * The pipelines with every data_components entry that names a data store (Matatika's Warehouse,
 * a store of the repository or the workspace) replaced by the loader of the default store
 * (target-store), and their properties of that entry renamed with it. A store that is not the
 * default cannot be loaded into here: a problem naming the entry.
 */
export async function pipelinesWithStores(trx: Db, request: ApplyRequest, stores: readonly DataStoreRow[], defaultStore: DataStoreRow | undefined, problems: FieldProblem[]): Promise<PipelineDefinition[]> {
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

/**
 * Saves the pipelines with the pipelines API's savePipeline. Triggers may name pipelines of this
 * same deployment that do not exist yet: the first pass saves every pipeline with those entries
 * standing in as 'deploy' (always valid, same list positions, so a message names the right index);
 * the second saves the real list once every name exists.
 */
export async function savePipelines(trx: Db, request: ApplyRequest, pipelines: readonly PipelineDefinition[], attempt: Attempt): Promise<SavedPipelines> {
  const { workspaceId, profileId } = request;
  const deployedNames = new Set(pipelines.map((p) => p.name.toLowerCase()));
  const saved: SavedPipelines = new Map();
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
  return saved;
}

/** Once nothing is refused: the setup tasks the pipelines API completes, a line per pipeline, the counts, and the updated rows (their watchers hear of them after commit). */
export async function settlePipelines(
  trx: Db,
  request: ApplyRequest,
  pipelines: readonly PipelineDefinition[],
  saved: SavedPipelines,
  lines: string[],
): Promise<{ created: number; updated: number; updatedRows: PipelineRow[] }> {
  const counts = { created: 0, updated: 0, updatedRows: [] as PipelineRow[] };
  for (const definition of pipelines) {
    const result = saved.get(definition);
    if (!result) continue;
    await completePipelineTasks(trx, result.row, request.profileId);
    if (result.existed) {
      counts.updated += 1;
      counts.updatedRows.push(result.row);
    } else counts.created += 1;
    lines.push(`${result.existed ? 'Updated' : 'Created'} pipeline ${result.row.name} from ${definition.file}.`);
  }
  return counts;
}
