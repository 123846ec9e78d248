import type { HalLike } from '../domain/hal';
import { datasetLineageSchema, pipelineLineageSchema, tableLineageSchema, type DatasetLineage, type PipelineLineage, type TableLineage } from '../domain/lineageResources';
import { REL } from '../domain/relations';
import type { ApiClient, RequestOptions } from './client';

/** GET the dataset's 'lineage' link (issue 41): its columns back to the tables, runs and sources they come from. */
export function datasetLineage(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<DatasetLineage> {
  return client.follow(dataset, REL.lineage, { ...options, schema: datasetLineageSchema });
}

/** GET the pipeline's 'lineage' link (issue 41): the tables its runs feed, the datasets and dashboards reading them. */
export function pipelineLineage(client: ApiClient, pipeline: HalLike, options: RequestOptions = {}): Promise<PipelineLineage> {
  return client.follow(pipeline, REL.lineage, { ...options, schema: pipelineLineageSchema });
}

/** GET a store table's 'lineage' link (issue 41): what loaded it, and the datasets and dashboards reading it. */
export function tableLineage(client: ApiClient, table: HalLike, options: RequestOptions = {}): Promise<TableLineage> {
  return client.follow(table, REL.lineage, { ...options, schema: tableLineageSchema });
}
