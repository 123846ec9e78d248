import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REL } from '../../src/domain/relations';
import type { Db } from '../db/database';
import { notFound } from '../http/errors';
import { pagedCollection, parsePaging } from '../http/hal';
import { requireWorkspaceLink } from '../policy/guard';
import { datasetLinks, LOCAL_REL } from '../policy/links';
import { answerQuestion, searchDatasets } from '../repositories/datasetSearch';
import { datasetsByIds, feedOf, findDataset, findDatasetInWorkspace, tagId, tagsOf, workspaceTags, type DatasetRow } from '../repositories/datasets';
import { iso, isoRequired, requestUrl, type RouteContext } from './context';
import { parseBody, parseQuery, rejectFieldErrors } from './validation';

const searchQuerySchema = z.looseObject({ q: z.string().max(1_000, 'must be at most 1000 characters').optional() });
const questionSchema = z.looseObject({ question: z.string().nullish() });

export function datasetBody(ctx: RouteContext, dataset: DatasetRow, tags: readonly string[]) {
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

export function datasetRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get<{ Params: { id: string } }>('/workspaces/:id/feed', async (request) => {
    const { workspace } = await requireWorkspaceLink(ctx.db, ctx.h, request.caller, request.params.id, REL.feed);
    const paging = parsePaging(request.query, { defaultSize: 10 });
    const { items, total } = await feedOf(ctx.db, workspace.id, paging);
    return pagedCollection('datasets', items.map((d) => datasetBody(ctx, d, d.tags)), paging, total, requestUrl(ctx, request));
  });

  /** Free text (typo-tolerant) with `tag:name` and `in:channel` filters; quotes are ignored. */
  app.get<{ Params: { id: string } }>('/workspaces/:id/search', async (request) => {
    const { workspace } = await requireWorkspaceLink(ctx.db, ctx.h, request.caller, request.params.id, REL.search);
    const { q } = parseQuery(searchQuerySchema, request.query, 'search');
    const paging = parsePaging(request.query, { defaultSize: 10 });
    const { ids, total } = await searchDatasets(ctx.db, workspace.id, q ?? '', paging);
    const items = await datasetsByIds(ctx.db, ids);
    return pagedCollection('datasets', await datasetBodies(ctx, ctx.db, items), paging, total, requestUrl(ctx, request));
  });

  app.get<{ Params: { id: string } }>('/workspaces/:id/tags', async (request) => {
    const { workspace } = await requireWorkspaceLink(ctx.db, ctx.h, request.caller, request.params.id, LOCAL_REL.tags);
    const paging = parsePaging(request.query, { defaultSize: 99 });
    const { items, total } = await workspaceTags(ctx.db, workspace.id, paging);
    const tags = items.map((t) => ({ id: tagId(workspace.id, t.name), name: t.name, usage: t.usage }));
    return pagedCollection('tags', tags, paging, total, requestUrl(ctx, request));
  });

  // The alias may contain slashes (spec 000 section 2.2), hence the wildcard.
  app.get<{ Params: { id: string; '*': string } }>('/workspaces/:id/datasets/*', async (request) => {
    const { workspace } = await requireWorkspaceLink(ctx.db, ctx.h, request.caller, request.params.id, REL.self);
    const idOrAlias = request.params['*'];
    const dataset = idOrAlias === '' ? undefined : await findDatasetInWorkspace(ctx.db, workspace.id, idOrAlias);
    if (!dataset) throw notFound(`Dataset ${idOrAlias} not found`);
    const [body] = await datasetBodies(ctx, ctx.db, [dataset]);
    return body;
  });

  /** A dataset by id: 404 when there is none, 403 when it belongs to a workspace the caller is not in. */
  app.get<{ Params: { id: string } }>('/datasets/:id', async (request) => {
    const dataset = await findDataset(ctx.db, request.params.id);
    if (!dataset) throw notFound(`Dataset ${request.params.id} not found`);
    await requireWorkspaceLink(ctx.db, ctx.h, request.caller, dataset.workspace_id, REL.self);
    const [body] = await datasetBodies(ctx, ctx.db, [dataset]);
    return body;
  });

  /** The assistant: the best-matching dataset's description, alias and id, or 204 when nothing matches. */
  app.post<{ Params: { id: string } }>('/workspaces/:id/questions', async (request, reply) => {
    const { workspace } = await requireWorkspaceLink(ctx.db, ctx.h, request.caller, request.params.id, REL.questions);
    const question = parseBody(questionSchema, request.body, 'question').question?.trim() ?? '';
    rejectFieldErrors('question', { question: question === '' ? 'Question is mandatory' : question.length > 1_000 ? 'must be at most 1000 characters' : undefined });
    const id = await answerQuestion(ctx.db, workspace.id, question);
    const dataset = id === undefined ? undefined : await findDataset(ctx.db, id);
    if (!dataset) return reply.status(204).send();
    return { description: dataset.description, alias: dataset.alias, id: dataset.id, title: dataset.title, _links: datasetLinks(ctx.h, dataset) };
  });
}
