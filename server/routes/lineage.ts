import type { FastifyInstance } from 'fastify';
import { datasetLineageSchema, pipelineLineageSchema, type DatasetLineage, type PipelineLineage } from '../../src/domain/lineageResources';
import { REL } from '../../src/domain/relations';
import type { Wire } from '../../src/domain/resources';
import { datasetLineageBody, pipelineLineageBody } from '../representations/lineage';
import { datasetLineage, pipelineLineage } from '../services/lineage';
import type { RouteContext } from './context';
import { defineRoute } from './define';

// Lineage (issue 41): a dataset's 'lineage' link (every member: where its columns come from) and a
// pipeline's (its admins: what its runs feed). Both read only the resource's own workspace.

export function lineageRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/lineage',
    guard: { resource: 'dataset', rel: REL.lineage },
    response: datasetLineageSchema,
    handler: async ({ access }): Promise<Wire<typeof datasetLineageSchema> & Partial<DatasetLineage>> => {
      const facts = await datasetLineage(ctx.db, access.workspace, access.dataset);
      return datasetLineageBody(ctx, access.dataset, facts, access.role);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/pipelines/:id/lineage',
    guard: { resource: 'pipeline', rel: REL.lineage },
    response: pipelineLineageSchema,
    handler: async ({ access }): Promise<Wire<typeof pipelineLineageSchema> & Partial<PipelineLineage>> => {
      const facts = await pipelineLineage(ctx.db, access.workspace, access.pipeline.id);
      return pipelineLineageBody(ctx, access.pipeline, facts, access.role);
    },
  });
}
