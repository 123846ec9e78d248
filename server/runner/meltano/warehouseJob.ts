import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DiscoveredPlugin } from '../../../src/domain/discovery';
import { TABLE_PREFIX_SETTING } from '../../../src/domain/tableNamespace';
import { postgresUrlOf, type Db } from '../../db/database';
import { storesApart } from '../../db/storeDatabase';
import type { DataComponentRow } from '../../repositories/dataComponents';
import { DEFAULT_STORE_LOADER } from '../../stores/storeKinds';
import { ensureLoadingRole } from '../../stores/loadingRole';
import { requireStoreRoom, storeMaxMb, watchStoreRoom } from '../../stores/storeSize';
import { SANDBOX_STORE_DIR, StoreProxy, type StoreUpstream } from '../warehouse/storeProxy';
import { recordDbtModels } from './dbtLineage';
import { pythonDefinitions } from './definitions';
import { StreamRecordCounts, recordWarehouseLoads } from './warehouseLoads';
import { componentWarehouseLoaders, readRepositoryMeltanoYml, repositoryWarehouseLoaders, warehouseEnv, withWarehouseSettings, type WarehouseLoader } from './warehouse';

// A Meltano pipeline's way into the workspace's store (issue 37; docs/decisions.md "The store is
// Meltano's warehouse"). On PostgreSQL: the workspace's loading role, a store proxy of this job's
// own, and the loaders' variables pointing at it. On the embedded PGlite, which has no wire server:
// a runner-written loader is replaced by the built-in target-store (which loads through the
// runner's bridge), and a repository's loader gets a line saying what it lacks.

/** Before Meltano is prepared: on PGlite the store's loaders become target-store (then nothing Python is left to install for them). */
export async function routeStoreLoaders(input: { db: Db; workspaceId: string; projectDir: string; workspaceComponents: readonly DataComponentRow[]; pipelineComponents: readonly DataComponentRow[]; pipelineProperties: Record<string, unknown>; write: (line: string) => void }): Promise<{ workspaceComponents: DataComponentRow[]; pipelineComponents: DataComponentRow[] }> {
  const unchanged = { workspaceComponents: [...input.workspaceComponents], pipelineComponents: [...input.pipelineComponents] };
  if (!storesApart(input.db)) return unchanged;
  const repository = readRepositoryMeltanoYml(input.projectDir);
  if (repository !== undefined) {
    const loaders = repositoryWarehouseLoaders(repository).filter((l) => l.kind !== 'dbt');
    const dbt = repositoryWarehouseLoaders(repository).filter((l) => l.kind === 'dbt');
    if (dbt.length > 0) input.write(`The repository's ${dbt.map((l) => l.name).join(', ')} would transform in the workspace's store, which needs the platform on PostgreSQL: the embedded database (PGlite) has no server dbt can log in to.`);
    if (loaders.length > 0) input.write(`The repository's loader${loaders.length > 1 ? 's' : ''} ${loaders.map((l) => l.name).join(', ')} would load into the workspace's store, which needs the platform on PostgreSQL: the embedded database (PGlite) has no server a loader can log in to. Give ${loaders.length > 1 ? 'them' : 'it'} a host of ${loaders.length > 1 ? 'their' : 'its'} own (a data store of yours), or load with target-store.`);
    return unchanged;
  }
  const { definitions } = await pythonDefinitions(input.db, input.workspaceId, input.pipelineComponents);
  // dbt-postgres has no built-in stand-in: it is left to fail as dbt fails, after the line below
  const all = componentWarehouseLoaders(input.pipelineComponents, definitions, input.pipelineProperties);
  const dbt = all.filter((l) => l.kind === 'dbt').map((l) => l.name);
  if (dbt.length > 0) input.write(`${dbt.join(', ')} would transform in the workspace's store, which needs the platform on PostgreSQL: the embedded database (PGlite) has no server dbt can log in to.`);
  const loaders = all.filter((l) => l.kind !== 'dbt');
  if (loaders.length === 0) return unchanged;
  const names = new Set(loaders.map((l) => l.name));
  input.write(`The embedded database (PGlite) has no server for ${[...names].join(', ')} to log in to: ${names.size > 1 ? 'they load' : 'it loads'} into the workspace's store through the built-in target-store instead (table prefix kept).`);
  const asStore = (c: DataComponentRow): DataComponentRow => (names.has(c.name) ? { ...c, plugin_name: DEFAULT_STORE_LOADER, variant: null, properties: c.properties[TABLE_PREFIX_SETTING] !== undefined ? { [TABLE_PREFIX_SETTING]: c.properties[TABLE_PREFIX_SETTING] } : {} } : c);
  const workspaceComponents = input.workspaceComponents.map(asStore);
  // the component keeps its name (the pipeline's script names it) and inherits from target-store, which meltano.yml must then list
  if (!workspaceComponents.some((c) => c.name === DEFAULT_STORE_LOADER)) {
    const template = workspaceComponents.find((c) => names.has(c.name))!;
    workspaceComponents.push({ ...template, name: DEFAULT_STORE_LOADER, properties: {} });
  }
  return { workspaceComponents, pipelineComponents: input.pipelineComponents.map(asStore) };
}

export interface WarehouseJob {
  /** variables to set, or (undefined) to take out of the job's environment */
  env: Record<string, string | undefined>;
  sockets: Array<{ source: string; target: string }>;
  /** each line of the job's log: the tap's record counters */
  observe(line: string): void;
  /** the store went past STORE_MAX_MB while the job ran, and its sessions were ended */
  readonly storeFull: boolean;
  /** once the run ended well: rows per stream and freshness, with lines for the job's log */
  record(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * On PostgreSQL, when the pipeline has loaders bound for the store: the proxy, open until `close`,
 * and their variables. Undefined when none is.
 */
export async function openWarehouse(input: {
  db: Db;
  workspaceId: string;
  jobId: string;
  pipelineId: string;
  projectDir: string;
  /** true when the job sees host paths as they are (no sandbox) */
  unsandboxed: boolean;
  pipelineComponents: readonly DataComponentRow[];
  /** the runner-written meltano.yml's definitions, by component: the store's loaders get the settings they need */
  definitions: Map<string, DiscoveredPlugin>;
  pipelineProperties: Record<string, unknown>;
  write: (line: string) => void;
  log: (line: string) => void;
  /** STORE_MAX_MB; from the environment when left out */
  storeLimitMb?: number;
}): Promise<WarehouseJob | undefined> {
  if (storesApart(input.db)) return undefined;
  const repository = readRepositoryMeltanoYml(input.projectDir);
  const loaders: WarehouseLoader[] = repository !== undefined ? repositoryWarehouseLoaders(repository) : componentWarehouseLoaders(input.pipelineComponents, input.definitions, input.pipelineProperties);
  if (loaders.length === 0) return undefined;
  const url = postgresUrlOf(input.db);
  if (!url) throw new Error('The store proxy needs the address of the platform database.');
  if (upstreamWantsTls(url)) throw new Error(`${loaders.map((l) => l.name).join(', ')} cannot reach the workspace's store on this install: the platform's database URL asks for TLS, which the runner's store proxy does not speak yet. Give the loader a host of its own, or load with target-store.`);
  if (repository === undefined) for (const l of loaders) if (l.kind !== 'dbt') input.definitions.set(l.name, withWarehouseSettings(input.definitions.get(l.name)!));
  // the loaders write past the bridge, so the store's limit is kept by measuring it while they run
  const limitMb = input.storeLimitMb ?? storeMaxMb();
  await requireStoreRoom(input.db, input.workspaceId, limitMb, 0);
  const role = await ensureLoadingRole(input.db, input.workspaceId);
  const token = randomBytes(24).toString('hex');
  const proxy = await StoreProxy.open({ upstream: upstreamOf(url), database: role.database, role: role.role, password: role.password, token, log: input.log });
  let storeFull = false;
  const stopWatching = watchStoreRoom(
    input.db,
    input.workspaceId,
    limitMb,
    (full) => {
      storeFull = true;
      input.write(full.message);
      proxy.shut(full.message);
    },
    (error) => input.log(`the store's size could not be measured: ${error instanceof Error ? error.message : String(error)}`),
  );
  const socketDir = input.unsandboxed ? proxy.dir : SANDBOX_STORE_DIR;
  const writers = loaders.filter((l) => l.kind !== 'dbt').map((l) => l.name);
  const dbt = loaders.filter((l) => l.kind === 'dbt').map((l) => l.name);
  const what = [writers.length > 0 ? `${writers.join(', ')} load${writers.length > 1 ? '' : 's'} into` : '', dbt.length > 0 ? `${dbt.join(', ')} transform${dbt.length > 1 ? '' : 's'} in` : ''].filter((w) => w !== '').join(' and ');
  input.write(`${what} the workspace's store (schema ${role.schema}) as role ${role.role}, through this job's own socket ${socketDir}.`);
  const counts = new StreamRecordCounts(new Set(writers));
  return {
    env: warehouseEnv(loaders, { socketDir, database: role.database, role: role.role, token, schema: role.schema }),
    get storeFull() {
      return storeFull;
    },
    sockets: [{ source: proxy.socketPath, target: `${SANDBOX_STORE_DIR}/${proxy.socketPath.split('/').pop()!}` }],
    observe: (line) => counts.observe(line),
    record: async () => {
      const tables = await recordWarehouseLoads(input.db, { jobId: input.jobId, pipelineId: input.pipelineId, workspaceId: input.workspaceId, schema: role.schema, counts });
      const lines = tables.length > 0 ? [`Loaded into the store: ${tables.join(', ')}.`] : [];
      // what dbt built is lineage too: a table a model made has no load of its own
      if (dbt.length > 0) lines.push(...(await recordDbtModels(input.db, { workspaceId: input.workspaceId, jobId: input.jobId, pipelineId: input.pipelineId, projectDir: input.projectDir, repository: repository !== undefined, schema: role.schema })));
      return lines;
    },
    close: () => {
      stopWatching();
      return proxy.close();
    },
  };
}

/**
 * How the app's pool reads its database URL (node-postgres's own parsing, nothing connects): the
 * proxy goes where the pool goes, a socket directory included (`?host=`, as libpq reads it).
 */
function poolTarget(url: string): { host: string; port: number; tls: boolean } {
  const client = new pg.Client({ connectionString: url });
  const ssl: unknown = client.ssl;
  return { host: client.host.replace(/^\[|\]$/g, '') || 'localhost', port: client.port || 5432, tls: ssl !== false && ssl !== undefined && ssl !== null };
}

export function upstreamOf(url: string): StoreUpstream {
  const { host, port } = poolTarget(url);
  return { host, port };
}

/**
 * Whether the app's pool connects with TLS, which the store proxy does not speak upstream yet: it
 * refuses rather than send the role's login and the workspace's rows in the clear where the
 * operator asked for encryption.
 */
export function upstreamWantsTls(url: string): boolean {
  return poolTarget(url).tls;
}
