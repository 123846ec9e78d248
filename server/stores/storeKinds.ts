import { POSTGRES_SETTINGS, POSTGRES_STORE_PLUGIN, postgresConnection, postgresJdbcUrl } from '../../src/domain/dataStores';
import { TABLE_PREFIX_SETTING } from '../../src/domain/tableNamespace';
import type { DataComponentRow } from '../repositories/dataComponents';
import type { AllowList, Lookup } from '../security/netPolicy';
import { DEFAULT_STORE_PLUGIN, type DataStoreRow } from './defaultStore';
import { STORE_UNREACHABLE, StoreUnreachable, pinnedConnection } from './postgresStore';

// Which loaders can be a data store, and what a pipeline's default-store loader becomes when the
// workspace's default store is one of them (docs/decisions.md "Data stores").

/** The loaders a new store may name: the embedded store exists once per workspace and is never added. */
export const STORE_PLUGINS: readonly string[] = [POSTGRES_STORE_PLUGIN];

/** The loader component that means "the workspace's default store". */
export const DEFAULT_STORE_LOADER = 'target-store';

export function jdbcUrlOf(store: Pick<DataStoreRow, 'data_plugin' | 'properties'>): string | null {
  return store.data_plugin === POSTGRES_STORE_PLUGIN ? postgresJdbcUrl(store.properties) : null;
}

/**
 * The components a job runs. A target-store component loads into the workspace's default store:
 * while that is a PostgreSQL store it runs as target-postgres with the store's connection
 * settings (its own batch size and table prefix kept), so every pipeline follows the default without being edited.
 */
export function withDefaultStoreLoader(components: readonly DataComponentRow[], store: DataStoreRow | undefined): DataComponentRow[] {
  if (!store || store.data_plugin === DEFAULT_STORE_PLUGIN || store.data_plugin !== POSTGRES_STORE_PLUGIN || store.draft) return [...components];
  const connection = Object.fromEntries(POSTGRES_SETTINGS.filter((key) => store.properties[key] !== undefined).map((key) => [key, store.properties[key]]));
  return components.map((c) =>
    c.plugin_name === DEFAULT_STORE_LOADER
      ? { ...c, plugin_name: 'target-postgres', properties: { ...pick(c.properties, ['batch_size', TABLE_PREFIX_SETTING]), ...connection } }
      : c,
  );
}

const pick = (properties: Readonly<Record<string, unknown>>, keys: readonly string[]) => Object.fromEntries(keys.filter((k) => properties[k] !== undefined).map((k) => [k, properties[k]]));

/** A line for the job log naming where this run loads (never the password). */
export function loadTargetLine(store: DataStoreRow | undefined): string | undefined {
  if (!store || store.data_plugin !== POSTGRES_STORE_PLUGIN || store.draft) return undefined;
  const c = postgresConnection(store.properties);
  return `The default data store is ${store.name} (${jdbcUrlOf(store) ?? `${c.host}:${c.port}`}): target-store loads into it with target-postgres.`;
}

type LoadTargetDecision = { ok: true; /** the checked address target-postgres should connect to */ host: string | undefined } | { ok: false; line: string; reason: string };

/**
 * The server's network policy on a run's default store, for the runner to call while it builds the
 * job's environment: the address to load into (pinned, so DNS cannot change it before the job
 * connects), or the one neutral line to end the job with — the reason is for the server log only.
 */
export async function decideLoadTarget(store: DataStoreRow | undefined, allowedHosts: AllowList, lookup?: Lookup): Promise<LoadTargetDecision> {
  if (!store || store.data_plugin !== POSTGRES_STORE_PLUGIN || store.draft) return { ok: true, host: undefined };
  try {
    const pinned = await pinnedConnection(postgresConnection(store.properties), allowedHosts, lookup);
    return { ok: true, host: pinned.host };
  } catch (error) {
    if (error instanceof StoreUnreachable) return { ok: false, line: `${STORE_UNREACHABLE} The run cannot load into ${store.name}.`, reason: error.detail };
    throw error;
  }
}
