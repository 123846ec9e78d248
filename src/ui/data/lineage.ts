import { datasetLineage, pipelineLineage } from '../../api/lineage';
import { hasLink } from '../../domain/hal';
import type { DatasetLineage, PipelineLineage } from '../../domain/lineageResources';
import { REL } from '../../domain/relations';
import type { Dataset, Pipeline } from '../../domain/resources';
import { useQuery, type Query } from './useQuery';

/** The dataset's lineage (issue 41), idle when it offers no 'lineage' link. */
export function useDatasetLineage(dataset: Dataset): Query<DatasetLineage> {
  return useQuery<DatasetLineage>(hasLink(dataset, REL.lineage) ? (client, signal) => datasetLineage(client, dataset, { signal }) : null, [dataset.id, hasLink(dataset, REL.lineage)]);
}

/** What the pipeline's runs feed (issue 41), idle when it offers no 'lineage' link; read again when `reloadKey` changes (a run ended). */
export function usePipelineLineage(pipeline: Pipeline, reloadKey: number): Query<PipelineLineage> {
  return useQuery<PipelineLineage>(hasLink(pipeline, REL.lineage) ? (client, signal) => pipelineLineage(client, pipeline, { signal }) : null, [pipeline.id, hasLink(pipeline, REL.lineage), reloadKey]);
}
