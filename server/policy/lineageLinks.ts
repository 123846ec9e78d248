import { REL } from '../../src/domain/relations';
import type { MemberRole } from '../db/schema';
import { links, type Links } from '../http/hal';
import type { Hrefs } from './hrefs';
import { isAdminRole } from './links';

// The links of lineage bodies (issue 41). Every member reads a dataset's lineage, as they read its
// freshness: which pipeline and run loaded its tables, and from which extractor. What those lead to
// (the pipeline, its runs, the store browser, a pipeline's impact) is the Lab's, offered to its
// admins only, as everywhere else.

/** A dataset's lineage: itself and its dataset. */
export function datasetLineageLinks(h: Hrefs, datasetId: string): Links {
  return links({ [REL.self]: h.datasetPart(datasetId, 'lineage'), [REL.dataset]: h.dataset(datasetId) });
}

/** A pipeline's lineage (its impact): itself and its pipeline; admins only, like the pipeline. */
export function pipelineLineageLinks(h: Hrefs, pipelineId: string, role: MemberRole): Links {
  if (!isAdminRole(role)) return {};
  return links({ [REL.self]: h.pipelinePart(pipelineId, 'lineage'), [REL.pipeline]: h.pipeline(pipelineId) });
}

/** A store table in a lineage body: the store browser's table, its pipeline, the runs and that pipeline's impact, for admins. */
export function lineageTableLinks(
  h: Hrefs,
  table: { workspaceId: string; name: string; exists: boolean; pipelineId: string | null; loadedById: string | null; latestRunId: string | null },
  role: MemberRole,
): Links {
  if (!isAdminRole(role)) return {};
  return links({
    [REL.table]: table.exists && h.workspacePart(table.workspaceId, `tables/${encodeURIComponent(table.name)}`),
    [REL.pipeline]: table.pipelineId !== null && h.pipeline(table.pipelineId),
    [REL.lineage]: table.pipelineId !== null && h.pipelinePart(table.pipelineId, 'lineage'),
    [REL.loadedBy]: table.loadedById !== null && h.job(table.loadedById),
    [REL.latestRun]: table.latestRunId !== null && h.job(table.latestRunId),
  });
}

/** A dataset downstream of a pipeline: the dataset and its own lineage, which every member reads. */
export function lineageDatasetLinks(h: Hrefs, datasetId: string): Links {
  return links({ [REL.self]: h.dataset(datasetId), [REL.lineage]: h.datasetPart(datasetId, 'lineage') });
}

/** One OpenLineage event in that list: what it reports, the run's job or the published dataset. */
export function lineageEventLinks(h: Hrefs, event: { kind: 'RUN' | 'PUBLISH'; subjectId: string }): Links {
  return links(event.kind === 'RUN' ? { [REL.run]: h.job(event.subjectId) } : { [REL.dataset]: h.dataset(event.subjectId) });
}

/** A store table in the store browser: itself and, for the Lab's admins, its lineage (issue 41). */
export function storeTableLinks(h: Hrefs, workspaceId: string, name: string, role: MemberRole): Links {
  const self = h.workspacePart(workspaceId, `tables/${encodeURIComponent(name)}`);
  return links({ [REL.self]: self, [REL.lineage]: isAdminRole(role) && `${self}/lineage` });
}

/** A store table's lineage: itself and its table. */
export function tableLineageLinks(h: Hrefs, workspaceId: string, name: string): Links {
  const table = h.workspacePart(workspaceId, `tables/${encodeURIComponent(name)}`);
  return links({ [REL.self]: `${table}/lineage`, [REL.table]: table });
}
