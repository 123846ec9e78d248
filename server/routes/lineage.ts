import type { FastifyInstance } from 'fastify';
import { datasetLineageSchema, pipelineLineageSchema, tableLineageSchema, type DatasetLineage, type PipelineLineage, type TableLineage } from '../../src/domain/lineageResources';
import { REL } from '../../src/domain/relations';
import type { Wire } from '../../src/domain/resources';
import { notFound } from '../http/errors';
import { datasetLineageBody, pipelineLineageBody, tableLineageBody } from '../representations/lineage';
import { datasetLineage, pipelineLineage, tableLineage } from '../services/lineage';
import type { RouteContext } from './context';
import { defineRoute } from './define';

// Lineage (issue 41): a dataset's 'lineage' link (every member: where its columns come from), a
// pipeline's (its admins: what its runs feed) and a store table's (the store browser's admins: what
// loaded it and what reads it). Each reads only the resource's own workspace.

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

  /** The store browser's table: guarded like the table itself (the workspace's 'tables', admins); 404 for a table the store does not have. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/tables/:table/lineage',
    guard: { resource: 'workspace', rel: REL.tables },
    response: tableLineageSchema,
    handler: async ({ access, param }): Promise<Wire<typeof tableLineageSchema> & Partial<TableLineage>> => {
      const name = param('table');
      const facts = await tableLineage(ctx.db, access.workspace, name);
      if (!facts) throw notFound(`The store has no table ${name}`);
      return tableLineageBody(ctx, access.workspace.id, facts, access.role);
    },
  });
}
