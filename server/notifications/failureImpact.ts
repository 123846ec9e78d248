import type { Impact } from '../../src/domain/lineageImpact';
import type { Db } from '../db/database';
import { pipelineLineage, type DownstreamDataset } from '../services/lineage';

// What a pipeline's failure reaches (issue 41, item 3), as its alerts name it: the datasets reading
// the tables its runs feed and the dashboards showing those. The same lineage rule the Impact tab
// and GET /api/pipelines/{id}/lineage use (services/lineage.ts), never a second query of its own.
// Called in the transaction that ends the job, so the run that just failed is already its latest.

interface FailureImpact extends Impact {
  /** the downstream datasets, with the tables of this pipeline each reads */
  readonly downstream: readonly DownstreamDataset[];
}

export async function failureImpact(db: Db, workspaceId: string, pipelineId: string): Promise<FailureImpact> {
  const workspace = await db.selectFrom('workspaces').select(['id', 'app_properties']).where('id', '=', workspaceId).executeTakeFirst();
  if (!workspace) return { downstream: [], datasets: [], dashboards: [] };
  const facts = await pipelineLineage(db, workspace, pipelineId);
  return { downstream: facts.datasets, datasets: facts.datasets.map((d) => d.title), dashboards: facts.dashboards.map((d) => d.title) };
}
