import { datasetLineage, pipelineLineage, tableLineage } from '../../api/lineage';
import { hasLink } from '../../domain/hal';
import type { DatasetLineage, PipelineLineage, TableLineage } from '../../domain/lineageResources';
import { REL } from '../../domain/relations';
import type { Dataset, Pipeline, StoreTable } from '../../domain/resources';
import { useQuery, type Query } from './useQuery';

/** The dataset's lineage (issue 41), idle when it offers no 'lineage' link. */
export function useDatasetLineage(dataset: Dataset): Query<DatasetLineage> {
  return useQuery<DatasetLineage>(hasLink(dataset, REL.lineage) ? (client, signal) => datasetLineage(client, dataset, { signal }) : null, [dataset.id, hasLink(dataset, REL.lineage)]);
}

/** What the pipeline's runs feed (issue 41), idle when it offers no 'lineage' link; read again when `reloadKey` changes (a run ended). */
export function usePipelineLineage(pipeline: Pipeline, reloadKey: number): Query<PipelineLineage> {
  return useQuery<PipelineLineage>(hasLink(pipeline, REL.lineage) ? (client, signal) => pipelineLineage(client, pipeline, { signal }) : null, [pipeline.id, hasLink(pipeline, REL.lineage), reloadKey]);
}

/** A store table's lineage (issue 41), idle when it offers no 'lineage' link; read again when the table's last load changes. */
export function useTableLineage(table: StoreTable): Query<TableLineage> {
  return useQuery<TableLineage>(hasLink(table, REL.lineage) ? (client, signal) => tableLineage(client, table, { signal }) : null, [table.name, hasLink(table, REL.lineage), table.lastLoad?.loaded ?? null]);
}
