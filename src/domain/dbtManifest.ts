// dbt's target/manifest.json, read for lineage (issue 41): which store tables a pipeline's dbt
// models built, and from which tables. The manifest is written by a stranger's project, so
// nothing in it is trusted: anything not shaped as expected is skipped, names are bounded as
// PostgreSQL bounds identifiers, and only what lives in the workspace's own store schema is kept.
// Pure: parsed JSON in, models out.

/** A table a dbt model built in the store, and the store tables it read. */
export interface DbtModel {
  /** the relation dbt built: the model's alias, else its name */
  table: string;
  /** the model's name in the dbt project */
  model: string;
  /** the tables of the same schema it depends on (models and sources), sorted, without itself */
  inputs: string[];
}

/** PostgreSQL's identifier limit (NAMEDATALEN - 1 bytes): a longer name cannot be a table of the store. */
const MAX_NAME_BYTES = 63;
/** More models or inputs than anyone writes: a manifest past them is cut, not followed. */
export const MAX_MODELS = 5000;
export const MAX_INPUTS = 500;

type Obj = Record<string, unknown>;
const utf8 = new TextEncoder();
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nameOf = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 && utf8.encode(v).length <= MAX_NAME_BYTES && !v.includes('\u0000') ? v : undefined);

/** The relation a node or source stands for in `schema`, or undefined when it is elsewhere or unnamed. */
function relationIn(node: unknown, schema: string, kind: 'model' | 'source'): string | undefined {
  if (!isObj(node) || node['resource_type'] !== kind || node['schema'] !== schema) return undefined;
  const named = kind === 'model' ? (node['alias'] ?? node['name']) : (node['identifier'] ?? node['name']);
  return nameOf(named);
}

/** The models of a parsed manifest built in `schema`, in the order of their table names. */
export function dbtModels(manifest: unknown, schema: string): DbtModel[] {
  if (!isObj(manifest)) return [];
  const nodes = isObj(manifest['nodes']) ? manifest['nodes'] : {};
  const sources = isObj(manifest['sources']) ? manifest['sources'] : {};
  const relationOf = (id: unknown): string | undefined => {
    if (typeof id !== 'string' || !Object.hasOwn(id.startsWith('source.') ? sources : nodes, id)) return undefined;
    return id.startsWith('source.') ? relationIn(sources[id], schema, 'source') : relationIn(nodes[id], schema, 'model');
  };
  const byTable = new Map<string, DbtModel>();
  for (const id of Object.keys(nodes).sort()) {
    if (byTable.size >= MAX_MODELS) break;
    const node = nodes[id];
    const table = relationIn(node, schema, 'model');
    const model = isObj(node) ? nameOf(node['name']) : undefined;
    // dbt refuses two models for one relation; should a manifest have them, the first (by id) stands
    if (table === undefined || model === undefined || byTable.has(table)) continue;
    const dependsOn = isObj(node) && isObj(node['depends_on']) ? node['depends_on']['nodes'] : undefined;
    const ids = Array.isArray(dependsOn) ? dependsOn.slice(0, MAX_INPUTS * 4) : [];
    const inputs = new Set<string>();
    for (const input of ids) {
      const relation = relationOf(input);
      if (relation !== undefined && relation !== table) inputs.add(relation);
      if (inputs.size >= MAX_INPUTS) break;
    }
    byTable.set(table, { table, model, inputs: [...inputs].sort() });
  }
  return [...byTable.values()].sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0));
}

/** The manifest's text parsed, or why it could not be. */
export function parseDbtManifest(text: string, schema: string): { models: DbtModel[] } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (!isObj(parsed)) return { error: 'it is not a JSON object' };
  return { models: dbtModels(parsed, schema) };
}
