import type { storeTableSchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import { storeTableLinks } from '../policy/lineageLinks';
import type { StoreTable } from '../stores/storeCatalog';
import { iso, type BodyContext } from './context';

export function storeTableBody(ctx: BodyContext, workspaceId: string, table: StoreTable, role: MemberRole): Wire<typeof storeTableSchema> {
  return {
    name: table.name,
    columns: table.columns,
    rows: table.rows,
    rowsAtLeast: table.rowsAtLeast,
    lastLoad: table.lastLoad && {
      loaded: iso(table.lastLoad.loaded) ?? '',
      rows: table.lastLoad.rows,
      jobId: table.lastLoad.jobId,
      pipelineId: table.lastLoad.pipelineId,
      pipelineName: table.lastLoad.pipelineName,
    },
    _links: storeTableLinks(ctx.h, workspaceId, table.name, role),
  };
}
