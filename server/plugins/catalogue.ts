import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { repositoryRoot } from './repositoryRoot';
import { DEFAULT_BATCH_SIZE } from './singerLoader';
import { fullDescription, pluginReference, readDiscovery, type DiscoveredPlugin } from '../../src/domain/discovery';
import { TABLE_PREFIX_SETTING } from '../../src/domain/tableNamespace';

// The plugins this server ships: Singer taps and a target written in TypeScript, runnable from
// bash like any Meltano plugin (bin/ is on every job's PATH). Their definitions follow Meltano's
// discovery.yml fields, so the catalogue and the pipeline form treat them like any plugin.

export interface SettingDef {
  name: string;
  label: string;
  kind: 'STRING' | 'INTEGER' | 'BOOLEAN' | 'DATE_ISO8601' | 'PASSWORD' | 'ARRAY' | 'OBJECT' | 'OPTIONS';
  description: string;
  value?: string | number | boolean | string[] | Record<string, unknown>;
  placeholder?: string;
  required?: boolean;
  sensitive?: boolean;
  env?: string;
}

export interface BuiltinPlugin {
  name: string;
  label: string;
  namespace: string;
  pluginType: 'EXTRACTOR' | 'LOADER';
  variant: 'builtin';
  description: string;
  capabilities: string[];
  settings: SettingDef[];
  /** the module run by bin/<name> */
  module: string;
}

export const PLUGINS_DIR = path.join(repositoryRoot(), 'server', 'plugins');
export const PLUGIN_BIN_DIR = path.join(PLUGINS_DIR, 'bin');

/** The loaders' table prefix (src/domain/tableNamespace.ts): set per pipeline, named from it. */
const TABLE_PREFIX: SettingDef = {
  name: TABLE_PREFIX_SETTING,
  label: 'Table prefix',
  kind: 'STRING',
  description: "Put before every stream's table name, so pipelines of the same source never write each other's tables. A new pipeline gets one from its name; empty writes the bare stream names.",
  placeholder: 'named from the pipeline when it is saved',
};

const BATCH_SIZE: SettingDef = {
  name: 'batch_size',
  label: 'Batch size',
  kind: 'INTEGER',
  description: 'Records written per batch, from 1 to 100,000. Each batch is copied in while the next is read.',
  value: DEFAULT_BATCH_SIZE,
};

const BUILTIN_PLUGINS: readonly BuiltinPlugin[] = [
  {
    name: 'tap-demo',
    label: 'Demo data',
    namespace: 'tap_demo',
    pluginType: 'EXTRACTOR',
    variant: 'builtin',
    description: 'Realistic sample business data — customers, orders and web sessions — generated day by day, so every run after the first is incremental.',
    capabilities: ['catalog', 'discover', 'state'],
    module: 'taps/demo.ts',
    settings: [
      { name: 'start_date', label: 'Start date', kind: 'DATE_ISO8601', description: 'The first day of generated data.', placeholder: '90 days ago' },
      { name: 'end_date', label: 'End date', kind: 'DATE_ISO8601', description: 'The last day of generated data (default: today).' },
      { name: 'seed', label: 'Seed', kind: 'INTEGER', description: 'The same seed always generates the same data.', value: 42 },
      { name: 'scale', label: 'Scale', kind: 'INTEGER', description: 'A multiplier of the daily volume.', value: 1 },
    ],
  },
  {
    name: 'tap-files',
    label: 'CSV and JSON files',
    namespace: 'tap_files',
    pluginType: 'EXTRACTOR',
    variant: 'builtin',
    description: 'Reads CSV, JSON and newline-delimited JSON files; each file is a stream, re-read only when it changed.',
    capabilities: ['catalog', 'discover', 'state'],
    module: 'taps/files.ts',
    settings: [
      { name: 'paths', label: 'Files', kind: 'ARRAY', description: 'Files or directories, relative to the project directory.', required: true },
      { name: 'key_properties', label: 'Keys', kind: 'OBJECT', description: 'Key columns per stream, e.g. {"customers": ["id"]}.' },
      { name: 'delimiter', label: 'CSV delimiter', kind: 'STRING', description: 'The CSV field separator.', value: ',' },
      { name: 'fail_on_bad_rows', label: 'Stop at a bad row', kind: 'BOOLEAN', description: 'End the run at the first row that cannot be read, instead of skipping it with a log line naming its file and line.', value: false },
    ],
  },
  {
    name: 'tap-postgres',
    label: 'PostgreSQL',
    namespace: 'tap_postgres',
    pluginType: 'EXTRACTOR',
    variant: 'builtin',
    description: 'Tables of a PostgreSQL database as streams, read incrementally by a replication key.',
    capabilities: ['catalog', 'discover', 'state'],
    module: 'taps/postgres.ts',
    settings: [
      { name: 'host', label: 'Host', kind: 'STRING', description: 'Server host name.', value: 'localhost' },
      { name: 'port', label: 'Port', kind: 'INTEGER', description: 'Server port.', value: 5432 },
      { name: 'user', label: 'User', kind: 'STRING', description: 'User name.', required: true },
      { name: 'password', label: 'Password', kind: 'PASSWORD', description: 'Password.', sensitive: true },
      { name: 'database', label: 'Database', kind: 'STRING', description: 'Database name.', required: true },
      { name: 'schema', label: 'Schema', kind: 'STRING', description: 'The schema whose tables are read.', value: 'public' },
      { name: 'tables', label: 'Tables', kind: 'ARRAY', description: 'Only these tables (default: all).' },
      { name: 'replication_keys', label: 'Replication keys', kind: 'OBJECT', description: 'Replication key column per table, e.g. {"orders": "updated_at"}; a table without one is read in full.' },
    ],
  },
  {
    name: 'target-store',
    label: 'Workspace data store',
    namespace: 'target_store',
    pluginType: 'LOADER',
    variant: 'builtin',
    description: "Loads into the workspace's default data store: a table per stream, upserted on the stream's key.",
    capabilities: [],
    module: 'targets/store.ts',
    settings: [TABLE_PREFIX, BATCH_SIZE],
  },
  {
    name: 'target-postgres',
    label: 'PostgreSQL',
    namespace: 'target_postgres',
    pluginType: 'LOADER',
    variant: 'builtin',
    description: 'Loads into a PostgreSQL database of your own: a table per stream in the chosen schema, upserted on the stream\'s key. A data store of this kind becomes the destination of every pipeline when it is the workspace default.',
    capabilities: [],
    module: 'targets/postgres.ts',
    settings: [
      { name: 'host', label: 'Host', kind: 'STRING', description: 'Server host name or IP address.', required: true },
      { name: 'port', label: 'Port', kind: 'INTEGER', description: 'Server port.', value: 5432 },
      { name: 'database', label: 'Database', kind: 'STRING', description: 'Database name.', required: true },
      { name: 'user', label: 'User', kind: 'STRING', description: 'User name.', required: true },
      { name: 'password', label: 'Password', kind: 'PASSWORD', description: 'Password; never shown again once saved.', sensitive: true },
      { name: 'schema', label: 'Schema', kind: 'STRING', description: 'The schema tables are created in (created when missing).', value: 'public' },
      TABLE_PREFIX,
      BATCH_SIZE,
    ],
  },
];

/** The built-in plugin of this name; a component of another variant of the same name (tap-postgres--meltanolabs) is not built in. */
export function builtinPlugin(name: string, variant?: string | null): BuiltinPlugin | undefined {
  return BUILTIN_PLUGINS.find((p) => p.name === name && (variant === undefined || variant === null || variant === p.variant));
}

// The whole catalogue: the built-in plugins (runnable, installed in every workspace) merged with
// the well-known Meltano plugins of catalogue.yml (Python packages, which Meltano installs and runs
// in the job's sandbox: server/runner/meltano/).

export interface CataloguePlugin extends DiscoveredPlugin {
  /** `{plural type}/{name}--{variant}` */
  id: string;
  fullDescription: string;
  /** a job can run it: ours, or a Python package with a pip_url for Meltano to install */
  runnable: boolean;
  builtin: boolean;
}

export function cataloguePlugin(plugin: DiscoveredPlugin, builtin: boolean): CataloguePlugin {
  return {
    ...plugin,
    id: pluginReference(plugin.pluginType, plugin.name, plugin.variant),
    fullDescription: fullDescription(plugin.description, plugin.docs),
    runnable: builtin || plugin.pipUrl !== null,
    builtin,
  };
}

function fromBuiltin(plugin: BuiltinPlugin): CataloguePlugin {
  return cataloguePlugin(
    {
      pluginType: plugin.pluginType,
      name: plugin.name,
      variant: plugin.variant,
      label: plugin.label,
      namespace: plugin.namespace,
      description: plugin.description,
      docs: null,
      repo: null,
      logoUrl: null,
      pipUrl: null,
      executable: plugin.name,
      capabilities: plugin.capabilities,
      commands: {},
      settings: plugin.settings.map((s) => ({
        name: s.name,
        label: s.label,
        kind: s.kind,
        description: s.description,
        ...(s.value === undefined ? {} : { value: s.value }),
        placeholder: s.placeholder ?? null,
        env: s.env ?? null,
        documentation: null,
        options: null,
        required: s.required ?? false,
        sensitive: s.sensitive ?? s.kind === 'PASSWORD',
        hidden: false,
        // the built-in plugins run outside Meltano, which is what applies a value transform
        valueProcessor: null,
        encoding: null,
      })),
      hidden: false,
    },
    true,
  );
}

const CATALOGUE_FILE = path.join(PLUGINS_DIR, 'catalogue.yml');

/** catalogue.yml, read once: a definition error there is a bug of this repository, so it stops the server. */
function loadCatalogueFile(): CataloguePlugin[] {
  const result = readDiscovery(parse(fs.readFileSync(CATALOGUE_FILE, 'utf8')));
  if (result.errors.length > 0) throw new Error(`${CATALOGUE_FILE}: ${result.errors.map((e) => `${e.objectName}.${e.field} - ${e.defaultMessage}`).join('; ')}`);
  return result.plugins.map((p) => cataloguePlugin(p, false));
}

let catalogue: readonly CataloguePlugin[] | undefined;

/** Every plugin a workspace may install, built-ins first. */
export function cataloguePlugins(): readonly CataloguePlugin[] {
  catalogue ??= [...BUILTIN_PLUGINS.map(fromBuiltin), ...loadCatalogueFile()];
  return catalogue;
}

/** A catalogue plugin by type, name and variant (no variant: the built-in, else the first listed). */
export function findCataloguePlugin(pluginType: string, name: string, variant: string | null): CataloguePlugin | undefined {
  const candidates = cataloguePlugins().filter((p) => p.pluginType === pluginType && p.name === name);
  return variant === null ? candidates[0] : candidates.find((p) => p.variant === variant);
}
