import type { datasetSchema, Wire } from '../../src/domain/resources';
import type { MemberRole } from '../db/schema';
import type { Hrefs } from '../policy/hrefs';
import { datasetLinks, datasetViewer, type DatasetViewer } from '../policy/links';
import { tagId, type DatasetBodyRow } from '../repositories/datasets';
import type { BodyContext } from './context';
import { JsonText, type JsonPieces } from '../http/jsonText';
import { linksJson } from './linkTemplates';

type Dataset = Wire<typeof datasetSchema>;

/** What some answers add to a dataset's body: a single dataset its freshness, a search result why it matched. */
type DatasetExtras = Pick<Dataset, 'freshness' | 'matches'>;

/**
 * A dataset's links as JSON, from the template of its six flags (linkTemplates.ts): the viewer's
 * role, star, watch and right to comment, and whether the dataset has a query or rows.
 */
export function datasetLinksJson(h: Hrefs, dataset: DatasetBodyRow, viewer: DatasetViewer): JsonPieces {
  const hasQuery = dataset.query !== null;
  const key = `dataset ${viewer.role} ${viewer.liked} ${viewer.subscribed} ${viewer.mayComment} ${hasQuery} ${dataset.holds_rows}`;
  return linksJson(h, key, [dataset.id], ([id]) => datasetLinks(h, { id: id!, holds_rows: dataset.holds_rows, query: hasQuery ? '' : null }, viewer));
}

/**
 * A dataset's answer as JSON text: the body stored on its row (migration 026 writes every field of
 * datasetSchema that is the same for every viewer), then its tags, `extras` and the viewer's links.
 */
export function datasetJson(ctx: BodyContext, dataset: DatasetBodyRow, role: MemberRole, extras: DatasetExtras = {}): JsonPieces {
  const tags: Dataset['tags'] = dataset.tags.map((name) => ({ id: tagId(dataset.workspace_id, name), name }));
  let added = `,"tags":${JSON.stringify(tags)}`;
  if (extras.freshness !== undefined) added += `,"freshness":${JSON.stringify(extras.freshness)}`;
  if (extras.matches !== undefined) added += `,"matches":${JSON.stringify(extras.matches)}`;
  // The stored body is one JSON object: its closing brace comes last. Its piece is a slice of the
  // text the driver read, never concatenated (JsonText).
  return [dataset.body_json.slice(0, -1), added, ',"_links":', datasetLinksJson(ctx.h, dataset, datasetViewer(role, dataset)), '}'];
}

/** The same as an object, for an answer that embeds a dataset in a body of its own (the news). */
export function datasetBody(ctx: BodyContext, dataset: DatasetBodyRow, role: MemberRole): Dataset {
  return JSON.parse(new JsonText(datasetJson(ctx, dataset, role)).text) as Dataset;
}
