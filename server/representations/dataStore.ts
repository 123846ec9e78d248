import { maskStoreProperties, storeState } from '../../src/domain/dataStores';
import type { dataStoreSchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import { builtinPlugin } from '../plugins/catalogue';
import { dataStoreLinks } from '../policy/links';
import type { DataStoreRow } from '../repositories/dataStores';
import { jdbcUrlOf } from '../stores/storeKinds';
import { iso, type BodyContext } from './context';

export function dataStoreBody(ctx: BodyContext, store: DataStoreRow, role: MemberRole, runs: boolean): Wire<typeof dataStoreSchema> {
  const plugin = builtinPlugin(pluginNameOf(store.data_plugin));
  return {
    id: store.id,
    name: store.name,
    // A PostgreSQL store's connection without its password; the embedded store is reached through the runner's bridge.
    jdbcUrl: jdbcUrlOf(store),
    logoUrl: null,
    managed: store.managed,
    draft: store.draft,
    default: store.is_default,
    status: storeState(store),
    statusMessage: store.status_message,
    dataPlugin: store.data_plugin,
    properties: maskStoreProperties(store.properties, plugin?.settings ?? []),
    created: iso(store.created),
    lastModified: iso(store.last_modified),
    _links: dataStoreLinks(ctx.h, store, role, runs),
  };
}

/** `loaders/target-postgres--builtin` → `target-postgres`. */
function pluginNameOf(reference: string): string {
  const name = reference.slice(reference.indexOf('/') + 1);
  const variant = name.indexOf('--');
  return variant < 0 ? name : name.slice(0, variant);
}
