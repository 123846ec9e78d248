import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { csvColumns, csvLine, csvRow } from '../../src/domain/csv';
import { REL } from '../../src/domain/relations';
import type { datasetSchema, questionAnswerSchema, tagSchema, Wire } from '../../src/domain/resources';
import type { Db } from '../db/database';
import { HttpError, notFound } from '../http/errors';
import { pagedCollection } from '../http/hal';
import { datasetLinks } from '../policy/links';
import { answerQuestion, searchDatasets } from '../repositories/datasetSearch';
import { datasetsByIds, feedOf, findDataset, findDatasetInWorkspace, tagId, tagsOf, workspaceTags, type DatasetRow } from '../repositories/datasets';
import { iso, isoRequired, requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';
import { rejectFieldErrors } from './validation';

const searchQuerySchema = z.looseObject({ q: z.string().max(1_000, 'must be at most 1000 characters').optional() });
const questionSchema = z.looseObject({ question: z.string().max(100_000, 'must be at most 1000 characters').nullish() });

export function datasetBody(ctx: RouteContext, dataset: DatasetRow, tags: readonly string[]): Wire<typeof datasetSchema> {
  return {
    id: dataset.id,
    workspaceId: dataset.workspace_id,
    alias: dataset.alias,
    title: dataset.title,
    description: dataset.description,
    descriptionContentType: dataset.description_content_type,
    questions: dataset.questions,
    visualisation: dataset.visualisation,
    metadata: dataset.metadata,
    rawData: dataset.raw_data,
    viewCount: dataset.view_count,
    likeCount: dataset.like_count,
    published: iso(dataset.published),
    created: isoRequired(dataset.created),
    lastModified: isoRequired(dataset.last_modified),
    tags: tags.map((name) => ({ id: tagId(dataset.workspace_id, name), name })),
    ...(dataset.channel_id !== null && dataset.channel_name !== null
      ? {
          _embedded: {
            source: { id: dataset.channel_id, name: dataset.channel_name, description: dataset.channel_description, picture: dataset.channel_picture },
          },
        }
      : {}),
    _links: datasetLinks(ctx.h, dataset),
  };
}

async function datasetBodies(ctx: RouteContext, db: Db, datasets: DatasetRow[]) {
  const tags = await tagsOf(
    db,
    datasets.map((d) => d.id),
  );
  return datasets.map((d) => datasetBody(ctx, d, tags.get(d.id) ?? []));
}

/** The rows of a dataset's rawData (JSON text of a list of objects); a list is what every reader expects. */
function rawRows(dataset: DatasetRow): Record<string, unknown>[] {
  try {
    const rows: unknown = JSON.parse(dataset.raw_data ?? '[]');
    if (Array.isArray(rows)) return rows.filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null && !Array.isArray(row));
  } catch {
    // fall through: stored data that is not a list is reported, not guessed at
  }
  throw new HttpError(422, 'The data of this dataset cannot be read');
}

export function datasetRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/feed',
    guard: { resource: 'workspace', rel: REL.feed },
    paging: { defaultSize: 10 },
    handler: async ({ request, access, paging }) => {
      const { items, total } = await feedOf(ctx.db, access.workspace.id, paging);
      return pagedCollection('datasets', items.map((d) => datasetBody(ctx, d, d.tags)), paging, total, requestUrl(ctx, request));
    },
  });

  /** Free text (typo-tolerant) with `tag:name` and `in:channel` filters; quotes are ignored. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/search',
    guard: { resource: 'workspace', rel: REL.search },
    query: searchQuerySchema,
    paging: { defaultSize: 10 },
    objectName: 'search',
    handler: async ({ request, access, query, paging }) => {
      const { ids, total } = await searchDatasets(ctx.db, access.workspace.id, query.q ?? '', paging);
      const items = await datasetsByIds(ctx.db, ids);
      return pagedCollection('datasets', await datasetBodies(ctx, ctx.db, items), paging, total, requestUrl(ctx, request));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/tags',
    guard: { resource: 'workspace', rel: REL.tags },
    paging: { defaultSize: 99 },
    handler: async ({ request, access, paging }) => {
      const workspaceId = access.workspace.id;
      const { items, total } = await workspaceTags(ctx.db, workspaceId, paging);
      const tags = items.map((t): Wire<typeof tagSchema> => ({ id: tagId(workspaceId, t.name), name: t.name, usage: t.usage }));
      return pagedCollection('tags', tags, paging, total, requestUrl(ctx, request));
    },
  });

  // The alias may contain slashes (spec 000 section 2.2), hence the wildcard.
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/datasets/*',
    guard: { resource: 'workspace', rel: REL.self },
    handler: async ({ access, param }) => {
      const idOrAlias = param('*');
      const dataset = idOrAlias === '' ? undefined : await findDatasetInWorkspace(ctx.db, access.workspace.id, idOrAlias);
      if (!dataset) throw notFound(`Dataset ${idOrAlias} not found`);
      const [body] = await datasetBodies(ctx, ctx.db, [dataset]);
      return body;
    },
  });

  /** A dataset by id: 404 when there is none, 403 when it belongs to a workspace the caller is not in. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id',
    guard: { resource: 'dataset', rel: REL.self },
    handler: async ({ access }) => {
      const [body] = await datasetBodies(ctx, ctx.db, [access.dataset]);
      return body;
    },
  });

  /** The dataset's rows: JSON, or CSV with `Accept: text/csv` (written row by row). */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/data',
    guard: { resource: 'dataset', rel: REL.data },
    handler: ({ request, reply, access }) => {
      const rows = rawRows(access.dataset);
      if (!/text\/csv/i.test(request.headers.accept ?? '')) return rows;
      const columns = csvColumns(rows);
      const lines = [csvLine(columns), ...rows.map((row) => csvRow(columns, row))];
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${access.dataset.alias ?? access.dataset.id}.csv"`.replace(/[^\x20-\x7e]/g, '_'))
        .send(lines.join(''));
    },
  });

  /** The assistant: the best-matching dataset's description, alias and id, or 204 when nothing matches. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/questions',
    guard: { resource: 'workspace', rel: REL.questions },
    body: questionSchema,
    objectName: 'question',
    handler: async ({ reply, access, body }) => {
      const question = body.question?.trim() ?? '';
      rejectFieldErrors('question', { question: question === '' ? 'Question is mandatory' : question.length > 1_000 ? 'must be at most 1000 characters' : undefined });
      const id = await answerQuestion(ctx.db, access.workspace.id, question);
      const dataset = id === undefined ? undefined : await findDataset(ctx.db, id);
      if (!dataset) return reply.status(204).send();
      const answer: Wire<typeof questionAnswerSchema> = { description: dataset.description, alias: dataset.alias, id: dataset.id, title: dataset.title, _links: datasetLinks(ctx.h, dataset) };
      return answer;
    },
  });
}
