import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { DiscoveredPlugin } from '../../../src/domain/discovery';
import { envName, isSystemVariable, isValidEnvName } from '../../../src/domain/settingEnv';
import { TABLE_PREFIX_SETTING, tablePrefixError } from '../../../src/domain/tableNamespace';
import type { DataComponentRow } from '../../repositories/dataComponents';
import { STORE_PORT } from '../warehouse/storeProxy';
import { REPOSITORY_DIR } from '../workspaceJobs';

// Which of a pipeline's Meltano loaders load into the workspace's store (issue 37, "the store is
// Meltano's warehouse"), and the variables that point them at it. A loader goes to the store when
// it is annotated `annotations: {matatika: {properties_from_datastore: …}}` (Matatika's convention),
// or when it is Meltano's target-postgres with no host of its own. Its connection settings then
// come from Meltano's environment, by the loader's name and namespace (Meltano reads both, the
// name first), so a deployed repository's meltano.yml works as written.

export interface WarehouseLoader {
  /** the plugin's name in meltano.yml */
  name: string;
  namespace: string;
  /** a loader (target-postgres's settings), or dbt-postgres (its profile's settings), as the same role */
  kind?: 'dbt';
  /** app-made pipelines' table prefix ('' or none: the streams' own names) */
  tablePrefix?: string;
}

const TARGET_POSTGRES_NAMESPACE = 'target_postgres';
/** settings that mean "this loader has a database of its own": it is left alone */
const OWN_CONNECTION = ['host', 'sqlalchemy_url'];

const isTargetPostgres = (namespace: string | null | undefined, pipUrl: string | null | undefined, name: string) =>
  namespace === TARGET_POSTGRES_NAMESPACE || /(^|[/@ ])(meltanolabs-)?target-postgres\b/.test(pipUrl ?? '') || name === 'target-postgres';

const hasValue = (value: unknown) => value !== undefined && value !== null && value !== '';

const DBT_POSTGRES_NAMESPACE = 'dbt_postgres';
const isDbtPostgres = (namespace: string | null | undefined, pipUrl: string | null | undefined, name: string) => namespace === DBT_POSTGRES_NAMESPACE || /(^|[\s/@])dbt-postgres\b/.test(pipUrl ?? '') || name === 'dbt-postgres';

/**
 * The runner-written meltano.yml: the pipeline's Python loaders that are target-postgres with no
 * host (nor URL) of their own, in the component's or the pipeline's properties.
 */
export function componentWarehouseLoaders(components: readonly DataComponentRow[], definitions: ReadonlyMap<string, DiscoveredPlugin>, pipelineProperties: Readonly<Record<string, unknown>>): WarehouseLoader[] {
  const loaders: WarehouseLoader[] = [];
  for (const c of components) {
    const definition = definitions.get(c.name);
    if (!definition) continue;
    const setting = (key: string) => pipelineProperties[`${c.name}.${key}`] ?? c.properties[key];
    // dbt-postgres with no host of its own transforms in the store, as the same role
    if (c.plugin_type === 'TRANSFORMER' && isDbtPostgres(definition.namespace, definition.pipUrl, definition.name) && !hasValue(setting('host'))) {
      loaders.push({ name: c.name, namespace: definition.namespace ?? DBT_POSTGRES_NAMESPACE, kind: 'dbt' });
      continue;
    }
    if (c.plugin_type !== 'LOADER' || !isTargetPostgres(definition.namespace, definition.pipUrl, definition.name)) continue;
    if (OWN_CONNECTION.some((key) => hasValue(setting(key)))) continue;
    const prefix = setting(TABLE_PREFIX_SETTING);
    loaders.push({ name: c.name, namespace: definition.namespace ?? TARGET_POSTGRES_NAMESPACE, ...(typeof prefix === 'string' && tablePrefixError(prefix) === undefined ? { tablePrefix: prefix } : {}) });
  }
  return loaders;
}

/**
 * A deployed repository's meltano.yml, as written: its loaders annotated for a data store, and its
 * target-postgres loaders with no host of their own (in `config`, or the default environment's).
 */
export function repositoryWarehouseLoaders(meltanoYml: string): WarehouseLoader[] {
  let project: unknown;
  try {
    project = parse(meltanoYml, { maxAliasCount: 100 });
  } catch {
    return [];
  }
  const p = record(project);
  const environment = typeof p.default_environment === 'string' ? p.default_environment : undefined;
  // `environments: [{name, config: {plugins: {loaders: [{name, config}]}}}]`: the default environment's overrides
  const environmentPlugins = record(record((Array.isArray(p.environments) ? p.environments : []).map(record).find((e) => e.name === environment)?.config).plugins);
  const environmentConfig = (type: string, name: string) => record((Array.isArray(environmentPlugins[type]) ? (environmentPlugins[type] as unknown[]) : []).map(record).find((l) => l.name === name)?.config);
  const namespaceOf = (entry: Record<string, unknown>, name: string) => (typeof entry.namespace === 'string' ? entry.namespace : typeof entry.inherit_from === 'string' ? entry.inherit_from.replace(/-/g, '_') : name.replace(/-/g, '_'));
  const loaders: WarehouseLoader[] = [];
  for (const entry of (Array.isArray(record(p.plugins).transformers) ? (record(p.plugins).transformers as unknown[]) : []).map(record)) {
    if (typeof entry.name !== 'string') continue;
    const namespace = namespaceOf(entry, entry.name);
    const config = { ...record(entry.config), ...environmentConfig('transformers', entry.name) };
    if (isDbtPostgres(namespace, typeof entry.pip_url === 'string' ? entry.pip_url : undefined, typeof entry.inherit_from === 'string' ? entry.inherit_from : entry.name) && !hasValue(config.host)) loaders.push({ name: entry.name, namespace, kind: 'dbt' });
  }
  for (const entry of (Array.isArray(record(p.plugins).loaders) ? (record(p.plugins).loaders as unknown[]) : []).map(record)) {
    if (typeof entry.name !== 'string') continue;
    const name = entry.name;
    const namespace = namespaceOf(entry, name);
    const annotated = record(record(entry.annotations).matatika).properties_from_datastore !== undefined;
    const config = { ...record(entry.config), ...environmentConfig('loaders', name) };
    const postgres = isTargetPostgres(namespace, typeof entry.pip_url === 'string' ? entry.pip_url : undefined, typeof entry.inherit_from === 'string' ? entry.inherit_from : name);
    if (annotated || (postgres && !OWN_CONNECTION.some((key) => hasValue(config[key])))) loaders.push({ name, namespace });
  }
  return loaders;
}

/** The repository's meltano.yml when Meltano's project is the deployed repository, else undefined. */
export function readRepositoryMeltanoYml(projectDir: string): string | undefined {
  try {
    const file = path.join(projectDir, REPOSITORY_DIR, 'meltano.yml');
    return fs.lstatSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

interface WarehouseConnection {
  /** where the job sees the proxy's socket directory (libpq's host) */
  socketDir: string;
  database: string;
  role: string;
  /** the job's token: what the loader sends as its password */
  token: string;
  schema: string;
}

/**
 * The variables of each loader: Meltano's target-postgres settings by the loader's namespace.
 * Meltano refuses a setting given by two variables (its name's and its namespace's), even with one
 * value, so the name's are unset (`undefined`): a default the job's settings gave them must not
 * meet ours. `sqlalchemy_url` too, because target-postgres renders host, port and database into a
 * URL, where a socket directory does not survive (`…@/run/store:5432/db` reads back as a database
 * name); libpq's `host` query parameter does. A table prefix becomes a stream map renaming every stream.
 */
export function warehouseEnv(loaders: readonly WarehouseLoader[], connection: WarehouseConnection): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  const url = `postgresql+psycopg://${encodeURIComponent(connection.role)}:${encodeURIComponent(connection.token)}@/${encodeURIComponent(connection.database)}?host=${encodeURIComponent(connection.socketDir)}&port=${STORE_PORT}`;
  for (const loader of loaders) {
    // dbt-postgres's profile reads these (env_var('DBT_POSTGRES_HOST') …); psycopg2 takes a socket directory as host as it is
    const settings: Record<string, string> = loader.kind === 'dbt' ? { host: connection.socketDir, port: String(STORE_PORT), user: connection.role, password: connection.token, dbname: connection.database, schema: connection.schema } : {
      host: connection.socketDir,
      port: String(STORE_PORT),
      user: connection.role,
      password: connection.token,
      database: connection.database,
      default_target_schema: connection.schema,
      sqlalchemy_url: url,
    };
    // the prefix is checked (lower-case letters, digits, _), so it is a safe literal in the expression
    if (loader.kind === 'dbt') env.DBT_SEND_ANONYMOUS_USAGE_STATS = 'false';
    if (loader.tablePrefix) settings.stream_maps = JSON.stringify({ '*': { __alias__: `'${loader.tablePrefix}' + __stream_name__` } });
    for (const [setting, value] of Object.entries(settings)) {
      const byNamespace = envName(loader.namespace, setting);
      const byName = envName(loader.name, setting);
      if (byName !== byNamespace) env[byName] = undefined;
      if (isValidEnvName(byNamespace) && !isSystemVariable(byNamespace)) env[byNamespace] = value;
    }
  }
  return env;
}

/** A job's environment with the warehouse's variables: set, or (undefined) taken out. */
export function withWarehouseEnv(env: Readonly<Record<string, string>>, warehouse: Readonly<Record<string, string | undefined>> | undefined): Record<string, string> {
  const merged: Record<string, string> = { ...env };
  for (const [name, value] of Object.entries(warehouse ?? {})) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/** The settings Meltano must know of to pass them (a plugin's definition may lack them). */
export function withWarehouseSettings(definition: DiscoveredPlugin): DiscoveredPlugin {
  const missing = ['sqlalchemy_url', 'stream_maps'].filter((name) => !definition.settings.some((s) => s.name === name));
  if (missing.length === 0) return definition;
  const setting = (name: string): DiscoveredPlugin['settings'][number] => ({ name, label: null, kind: name === 'stream_maps' ? 'OBJECT' : 'STRING', description: null, placeholder: null, env: null, documentation: null, options: null, required: null, sensitive: name === 'sqlalchemy_url', hidden: true, valueProcessor: null, encoding: null });
  return { ...definition, settings: [...definition.settings, ...missing.map(setting)] };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
