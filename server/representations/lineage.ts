import type { datasetLineageSchema, lineageExtractorSchema, lineageRunSchema, lineageTableSchema, pipelineLineageSchema, tableLineageSchema } from '../../src/domain/lineageResources';
import type { Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import { datasetLineageLinks, lineageDatasetLinks, lineageTableLinks, pipelineLineageLinks, tableLineageLinks } from '../policy/lineageLinks';
import type { DataComponentRow } from '../repositories/dataComponents';
import type { RunRow } from '../repositories/lineage';
import type { DatasetLineageFacts, PipelineLineageFacts, TableLineageFacts, TableNode } from '../services/lineage';
import { iso, type BodyContext } from './context';

// The lineage bodies (issue 41): a dataset's, a pipeline's and a store table's, built from what services/lineage.ts
// found; links from the policy (../policy/lineageLinks.ts).

function runBody(run: RunRow | null | undefined): Wire<typeof lineageRunSchema> | null {
  return run ? { id: run.id, status: run.status, startTime: iso(run.start_time), endTime: iso(run.end_time) } : null;
}

const extractorBody = (c: DataComponentRow): Wire<typeof lineageExtractorSchema> => ({ name: c.name, plugin: c.plugin_name, variant: c.variant });

function tableBody(ctx: BodyContext, workspaceId: string, table: TableNode, role: MemberRole): Wire<typeof lineageTableSchema> {
  // a model's table was made by the run that built it
  const loadedBy = table.model ? table.model.job : (table.load?.job ?? null);
  return {
    name: table.name,
    status: table.status,
    exists: table.exists,
    columns: table.columns,
    loaded: table.model ? iso(table.model.built_at) : table.load ? iso(table.load.loaded) : null,
    rows: table.load ? Number(table.load.rows) : null,
    stream: table.stream,
    pipeline: table.pipeline ? { id: table.pipeline.id, name: table.pipeline.name } : null,
    loadedBy: runBody(loadedBy),
    latestRun: runBody(table.pipeline?.latest),
    extractors: table.extractors.map(extractorBody),
    model: table.model ? { name: table.model.model, inputs: table.model.inputs, run: runBody(table.model.job) } : null,
    ...(table.upstream ? { upstream: true } : {}),
    _links: lineageTableLinks(
      ctx.h,
      { workspaceId, name: table.name, exists: table.exists, pipelineId: table.pipeline?.id ?? null, loadedById: loadedBy?.id ?? null, latestRunId: table.pipeline?.latest?.id ?? null },
      role,
    ),
  };
}

export function datasetLineageBody(
  ctx: BodyContext,
  dataset: { id: string; title: string; workspace_id: string },
  facts: DatasetLineageFacts,
  role: MemberRole,
): Wire<typeof datasetLineageSchema> {
  return {
    datasetId: dataset.id,
    title: dataset.title,
    status: facts.status,
    refused: facts.refused,
    columns: facts.columns,
    tables: facts.tables.map((t) => tableBody(ctx, dataset.workspace_id, t, role)),
    dashboards: facts.dashboards,
    _links: datasetLineageLinks(ctx.h, dataset.id),
  };
}

export function pipelineLineageBody(
  ctx: BodyContext,
  pipeline: { id: string; name: string; workspace_id: string },
  facts: PipelineLineageFacts,
  role: MemberRole,
): Wire<typeof pipelineLineageSchema> {
  return {
    pipelineId: pipeline.id,
    name: pipeline.name,
    status: facts.status,
    latestRun: runBody(facts.pipeline?.latest),
    extractors: facts.extractors.map(extractorBody),
    tables: facts.tables.map((t) => tableBody(ctx, pipeline.workspace_id, t, role)),
    datasets: facts.datasets.map((d) => ({ ...d, _links: lineageDatasetLinks(ctx.h, d.id) })),
    dashboards: facts.dashboards,
    _links: pipelineLineageLinks(ctx.h, pipeline.id, role),
  };
}

export function tableLineageBody(ctx: BodyContext, workspaceId: string, facts: TableLineageFacts, role: MemberRole): Wire<typeof tableLineageSchema> {
  return {
    name: facts.table.name,
    status: facts.table.status,
    table: tableBody(ctx, workspaceId, facts.table, role),
    datasets: facts.datasets.map((d) => ({ ...d, _links: lineageDatasetLinks(ctx.h, d.id) })),
    dashboards: facts.dashboards,
    _links: tableLineageLinks(ctx.h, workspaceId, facts.table.name),
  };
}
