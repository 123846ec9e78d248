import type { FastifyInstance } from 'fastify';
import { REL } from '../../../src/domain/relations';
import { storeTableSampleSchema, storeTablesSchema, type Wire } from '../../../src/domain/resources';
import { untilClientLeaves } from '../../http/clientGone';
import { HttpError, notFound } from '../../http/errors';
import { links } from '../../http/hal';
import { QueryRefused } from '../../stores/queryGuard';
import { datasetQueryLimits, QueryFailed } from '../../stores/queryRunner';
import { sampleOf, storeCatalog, storeTableColumns } from '../../stores/storeCatalog';
import { storeTableBody } from '../../representations/storeTable';
import type { RouteContext } from '../context';
import { defineRoute } from '../define';

// The store browser (issue 20): the tables of a workspace's embedded store, where dataset SQL
// reads, and each table's first rows. Offered to the admins who may preview dataset SQL, through
// the workspace's and the embedded store's 'tables' link.

export function storeTableRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const tableHref = (workspaceId: string, table: string) => ctx.h.workspacePart(workspaceId, `tables/${encodeURIComponent(table)}`);

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/tables',
    guard: { resource: 'workspace', rel: REL.tables },
    response: storeTablesSchema,
    handler: async ({ reply, access }): Promise<Wire<typeof storeTablesSchema>> => {
      const workspaceId = access.workspace.id;
      const tables = await storeCatalog(ctx.db, workspaceId, datasetQueryLimits(ctx.config.env), untilClientLeaves(reply));
      return { tables: tables.map((t) => storeTableBody(ctx, workspaceId, t, access.role)), _links: links({ self: ctx.h.workspacePart(workspaceId, 'tables') }) };
    },
  });

  /** A table's columns and first rows; 404 for a table the store does not have. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/tables/:table',
    guard: { resource: 'workspace', rel: REL.tables },
    response: storeTableSampleSchema,
    handler: async ({ reply, access, param }): Promise<Wire<typeof storeTableSampleSchema>> => {
      const workspaceId = access.workspace.id;
      const name = param('table');
      const columns = await storeTableColumns(ctx.db, workspaceId, name);
      if (!columns) throw notFound(`The store has no table ${name}`);
      try {
        const sample = await sampleOf(ctx.db, workspaceId, name, datasetQueryLimits(ctx.config.env), untilClientLeaves(reply));
        return { name, columns, rows: sample.rows, truncated: sample.truncated, _links: links({ self: tableHref(workspaceId, name) }) };
      } catch (error) {
        // the time limit, or a value over the size cap: said as a dataset query would say it
        if (error instanceof QueryFailed || error instanceof QueryRefused) throw new HttpError(422, error.message);
        throw error;
      }
    },
  });
}
