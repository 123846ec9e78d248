import type { HalLike } from '../domain/hal';
import { REL } from '../domain/relations';
import { storeTableSampleSchema, storeTablesSchema, type StoreTable, type StoreTableSample } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

// The store browser (issue 20): the 'tables' link of a workspace or of its embedded store, and a
// table's self link with its first rows.

export async function listStoreTables(client: ApiClient, owner: HalLike, options: RequestOptions = {}): Promise<StoreTable[]> {
  const answer = await client.follow(owner, REL.tables, { ...options, schema: storeTablesSchema });
  return answer.tables;
}

export function storeTableSample(client: ApiClient, table: StoreTable, options: RequestOptions = {}): Promise<StoreTableSample> {
  return client.follow(table, REL.self, { ...options, schema: storeTableSampleSchema });
}
