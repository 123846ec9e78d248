import type { HalLike } from '../domain/hal';
import { datasetLineageSchema, type DatasetLineage } from '../domain/lineageResources';
import { REL } from '../domain/relations';
import type { ApiClient, RequestOptions } from './client';

/** GET the dataset's 'lineage' link (issue 41): its columns back to the tables, runs and sources they come from. */
export function datasetLineage(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<DatasetLineage> {
  return client.follow(dataset, REL.lineage, { ...options, schema: datasetLineageSchema });
}
