import { datasetLineage } from '../../api/lineage';
import { hasLink } from '../../domain/hal';
import type { DatasetLineage } from '../../domain/lineageResources';
import { REL } from '../../domain/relations';
import type { Dataset } from '../../domain/resources';
import { useQuery, type Query } from './useQuery';

/** The dataset's lineage (issue 41), idle when it offers no 'lineage' link. */
export function useDatasetLineage(dataset: Dataset): Query<DatasetLineage> {
  return useQuery<DatasetLineage>(hasLink(dataset, REL.lineage) ? (client, signal) => datasetLineage(client, dataset, { signal }) : null, [dataset.id, hasLink(dataset, REL.lineage)]);
}
