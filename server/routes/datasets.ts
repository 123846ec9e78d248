import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { csvColumns, csvLine, csvRow } from '../../src/domain/csv';
import { REL } from '../../src/domain/relations';
import { missingTablesMessage } from '../../src/domain/storeTables';
import { datasetMultiSearchSchema, datasetPatchSchema, datasetPreviewRequestSchema, datasetPreviewSchema, datasetSchema, datasetsCollectionSchema, datasetWriteSchema, type Freshness, questionAnswerSchema, type Wire } from '../../src/domain/resources';
import { MULTI_SEARCH_DEFAULT_SIZE, parseMultiSearch } from '../../src/domain/multiSearch';
import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import { untilClientLeaves } from '../http/clientGone';
import { badRequest, HttpError, notFound } from '../http/errors';
import { pagedCollectionText, type Paging } from '../http/hal';
import { JsonText, type JsonPieces } from '../http/jsonText';
import { datasetLinks, datasetViewer } from '../policy/links';
import { answerQuestion } from '../repositories/datasetSearch';
import { readSearchText } from '../repositories/searchText';
import type { SearchEngine } from '../search/engine';
import { postgresSearchEngine } from '../search/postgres';
import { callersFeed, datasetsByIds, datasetsOf, feedOf, findDataset, findDatasetInWorkspace, relatedTo, type DatasetRow } from '../repositories/datasets';
import { datasetJson } from '../representations/dataset';
import { countView, deleteDataset } from '../repositories/datasetWrites';
import { loadsOf } from '../repositories/freshness';
import { storeTables } from '../stores/defaultStore';
import { checkQuery, QueryRefused, type CheckedQuery } from '../stores/queryGuard';
import { datasetQueryLimits, exportCsv, missingTables, QueryFailed, runQuery, type QueryLimits } from '../stores/queryRunner';
import { requestUrl, type RouteContext } from './context';
import { patchDataset, publishDatasetAs } from '../services/publishDataset';
import { setDatasetLiked } from '../services/likes';
import { defineRoute } from './define';
import { rejectFieldErrors } from '../http/validation';
import { watchRoutes } from './watch';

// A pasted 10 KB text answers normally (only its first 1000 characters are read); beyond 12,000 it is refused
// (a longer query string would pass Node's 16 KB header limit anyway).
const searchQuerySchema = z.looseObject({ q: z.string().max(12_000, 'must be at most 12000 characters').optional() });
/** An _msearch body: NDJSON text, its lines read by parseMultiSearch (each search a header and a query line). */
const MULTI_SEARCH_BODY_BYTES = 64 * 1024;
const multiSearchBody = z
  .string({ message: 'must be NDJSON (Content-Type: application/x-ndjson): a header line and a query line per search' })
  .max(MULTI_SEARCH_BODY_BYTES, `must be at most ${MULTI_SEARCH_BODY_BYTES / 1024} KB`);
const listQuerySchema = z.looseObject({ search: z.string().max(1_000, 'must be at most 1000 characters').optional() });
const questionSchema = z.looseObject({ question: z.string().max(100_000, 'must be at most 1000 characters').nullish() });

/** Rows a preview shows at most. */
const PREVIEW_ROWS = 100;

/** One dataset with its freshness: the body of every single-dataset answer. */
async function fullBody(ctx: RouteContext, dataset: DatasetRow, role: MemberRole): Promise<JsonText> {
  return new JsonText(datasetJson(ctx, dataset, role, { freshness: await freshnessOf(ctx, dataset) }));
}

/**
 * Which run last refreshed the tables the query reads (taken from the parsed SQL), whether that
 * pipeline's latest run failed, and which tables no run has loaded yet. None without a query.
 */
async function freshnessOf(ctx: RouteContext, dataset: DatasetRow): Promise<Freshness | null> {
  if (dataset.query === null) return null;
  let tables: string[];
  try {
    tables = (await checkQuery(dataset.query)).tables;
  } catch {
    return null;
  }
  const [missing, loads] = await Promise.all([missingTables(ctx.db, dataset.workspace_id, tables), loadsOf(ctx.db, dataset.workspace_id, tables)]);
  const latest = loads.reduce<(typeof loads)[number] | undefined>((best, load) => (best === undefined || load.loaded > best.loaded ? load : best), undefined);
  const failed = loads.find((load) => load.failedJobId !== null);
  return {
    tables,
    missingTables: missing,
    refreshed: latest ? latest.loaded.toISOString() : null,
    jobId: latest?.jobId ?? null,
    pipelineId: latest?.pipelineId ?? null,
    pipelineName: latest?.pipelineName ?? null,
    failed: failed !== undefined,
    failedJobId: failed?.failedJobId ?? null,
  };
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

function csvReply(reply: FastifyReply, dataset: DatasetRow): FastifyReply {
  const name = (dataset.alias ?? dataset.id).replace(/[^A-Za-z0-9._-]/g, '_');
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`);
}

/** The export's stream once its first batch is read; a query failing before that rejects instead. */
function csvExport(db: Db, workspaceId: string, checked: CheckedQuery, limits: QueryLimits, signal: AbortSignal): Promise<PassThrough> {
  return new Promise((resolve, reject) => {
    const open = () => {
      const out = new PassThrough();
      resolve(out);
      return out;
    };
    // after the stream was handed on, a failure has destroyed it (a cut download): nothing more to answer
    exportCsv(db, workspaceId, checked, limits, signal, open).catch(reject);
  });
}

/** A refusal of the parser or a failure of the database, as the 422 of the data link. */
function unprocessable(error: unknown): never {
  if (error instanceof QueryRefused || error instanceof QueryFailed) throw new HttpError(422, error.message);
  throw error;
}

export function datasetRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const searchEngine: SearchEngine = postgresSearchEngine(ctx.db);
  const limits = (): QueryLimits => datasetQueryLimits(ctx.config.env);

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/feed',
    guard: { resource: 'workspace', rel: REL.feed },
    response: datasetsCollectionSchema,
    paging: { defaultSize: 10 },
    readWithCaller: ({ paging }) => callersFeed(ctx.db, paging),
    handler: async ({ request, access, paging, carried }) => {
      const { items, total } = await feedOf(ctx.db, access.workspace.id, carried, paging);
      return pagedCollectionText('datasets', items.map((d) => datasetJson(ctx, d, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  /** One page of a search as the search answers it; `selfUrl` is the GET that answers the same page. */
  const searchPage = async (search: { workspaceId: string; role: MemberRole; viewerId: string; q: string; paging: Paging; selfUrl: string }): Promise<JsonText> => {
    const text = readSearchText(search.q);
    const { hits, total } = await searchEngine.search({ workspaceId: search.workspaceId, viewerId: search.viewerId, text, paging: search.paging });
    const items = await datasetsByIds(ctx.db, hits.map((hit) => hit.id), search.viewerId);
    const matches = new Map(hits.map((hit) => [hit.id, hit.matches]));
    // Each result says why it matched (issue 11).
    const explained = items.map((d) => datasetJson(ctx, d, search.role, { matches: [...(matches.get(d.id) ?? [])] }));
    return pagedCollectionText('datasets', explained, search.paging, total, search.selfUrl);
  };

  /** Free text (typo-tolerant) with `tag:name` and `in:channel` filters; quotes are ignored. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/search',
    guard: { resource: 'workspace', rel: REL.search },
    response: datasetsCollectionSchema,
    query: searchQuerySchema,
    paging: { defaultSize: MULTI_SEARCH_DEFAULT_SIZE },
    objectName: 'search',
    handler: ({ request, access, query, paging }) =>
      searchPage({ workspaceId: access.workspace.id, role: access.role, viewerId: request.caller.profileId, q: query.q ?? '', paging, selfUrl: requestUrl(ctx, request) }),
  });

  // Elasticsearch's multi-search, for clients written against the reference: NDJSON (a header
  // line and a query line per search, src/domain/multiSearch.ts), read as text under its own
  // body limit; JSON is read as the API reads it everywhere, and refused as no NDJSON.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser('application/x-ndjson', { parseAs: 'string', bodyLimit: MULTI_SEARCH_BODY_BYTES }, (_request, body, next) => next(null, body));

    /** 'search', several at once (at most MULTI_SEARCH_MAX): `{responses: [...]}`, each the body GET …/search answers for that page. */
    defineRoute(scope, ctx, {
      method: 'POST',
      url: '/workspaces/:id/datasets/_msearch',
      guard: { resource: 'workspace', rel: REL.search },
      response: datasetMultiSearchSchema,
      body: multiSearchBody,
      objectName: 'msearch',
      handler: async ({ request, access, body }) => {
        const parsed = parseMultiSearch(body);
        if (!parsed.ok) throw badRequest("Validation failed for object='msearch'", parsed.problems.map((p) => ({ field: p.field, objectName: 'msearch', defaultMessage: p.message })));
        const base = ctx.h.workspacePart(access.workspace.id, 'search');
        const pages: JsonPieces[] = [];
        // one after another: a request's searches share one connection's turn, as its page loads would
        for (const search of parsed.searches) {
          const selfUrl = search.q === '' ? base : `${base}?q=${encodeURIComponent(search.q)}`;
          const page = await searchPage({ workspaceId: access.workspace.id, role: access.role, viewerId: request.caller.profileId, q: search.q, paging: { page: search.page, size: search.size, sort: undefined }, selfUrl });
          pages.push(pages.length === 0 ? page.pieces : [',', page.pieces]);
        }
        return new JsonText(['{"responses":[', pages, ']}']);
      },
    });
    done();
  });

  /** The Lab's list: every dataset of the workspace by title, `?search=` on title or alias. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/datasets',
    guard: { resource: 'workspace', rel: REL.datasets },
    response: datasetsCollectionSchema,
    query: listQuerySchema,
    paging: { defaultSize: 20 },
    objectName: 'datasets',
    handler: async ({ request, access, query, paging }) => {
      const { items, total } = await datasetsOf(ctx.db, access.workspace.id, query.search?.trim() ?? '', paging, request.caller.profileId);
      return pagedCollectionText('datasets', items.map((d) => datasetJson(ctx, d, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  /** 'publish dataset': 201 with a new dataset, 200 when the body's id or alias names one of this workspace (replaced). */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/datasets',
    guard: { resource: 'workspace', rel: REL.publishDataset },
    response: datasetSchema,
    body: datasetWriteSchema,
    objectName: 'dataset',
    handler: async ({ request, reply, access, body }) => {
      // the setup task is completed with the dataset, never without it
      const { id, created } = await publishDatasetAs(ctx.db, access.workspace.id, body, request.caller.profileId);
      const dataset = await findDataset(ctx.db, id, request.caller.profileId);
      if (!dataset) throw notFound('Dataset not found');
      void reply.status(created ? 201 : 200);
      return fullBody(ctx, dataset, access.role);
    },
  });

  /** 'preview dataset': the first rows of a query before it is saved; a refused or failing query is a 400 on `query`. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/datasets/preview',
    guard: { resource: 'workspace', rel: REL.previewDataset },
    response: datasetPreviewSchema,
    body: datasetPreviewRequestSchema,
    objectName: 'dataset',
    handler: async ({ reply, access, body }): Promise<Wire<typeof datasetPreviewSchema>> => {
      const fail = (message: string): never => {
        throw badRequest("Validation failed for object='dataset'", [{ field: 'query', objectName: 'dataset', defaultMessage: message }]);
      };
      try {
        const checked = await checkQuery(body.query);
        const missing = await missingTables(ctx.db, access.workspace.id, checked.tables);
        if (missing.length > 0) fail(missingTablesMessage(missing, await storeTables(ctx.db, access.workspace.id)));
        const { columns, rows, truncated } = await runQuery(ctx.db, access.workspace.id, checked, PREVIEW_ROWS, limits(), untilClientLeaves(reply));
        return { columns, rows, truncated };
      } catch (error) {
        if (error instanceof QueryRefused || error instanceof QueryFailed) fail(error.message);
        throw error;
      }
    },
  });

  // The alias may contain slashes (spec 000 section 2.2), hence the wildcard.
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/datasets/*',
    guard: { resource: 'workspace', rel: REL.self },
    response: datasetSchema,
    handler: async ({ request, access, param }) => {
      const idOrAlias = param('*');
      const dataset = idOrAlias === '' ? undefined : await findDatasetInWorkspace(ctx.db, access.workspace.id, idOrAlias, request.caller.profileId);
      if (!dataset) throw notFound(`Dataset ${idOrAlias} not found`);
      return fullBody(ctx, dataset, access.role);
    },
  });

  /** A dataset by id: 404 when there is none, 403 when it belongs to a workspace the caller is not in. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id',
    guard: { resource: 'dataset', rel: REL.self },
    response: datasetSchema,
    handler: ({ access }) => fullBody(ctx, access.dataset, access.role),
  });

  /** 'edit dataset': any subset of the publish body, checked by the same rules. */
  defineRoute(app, ctx, {
    method: 'PATCH',
    url: '/datasets/:id',
    guard: { resource: 'dataset', rel: REL.editDataset },
    response: datasetSchema,
    body: datasetPatchSchema,
    objectName: 'dataset',
    handler: async ({ request, access, body }) => {
      // Every field is optional, so only this tells a PATCH of nothing from a body that is not an object.
      if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) throw badRequest("Validation failed for object='dataset'", [{ field: '', objectName: 'dataset', defaultMessage: 'must be an object' }]);
      await patchDataset(ctx.db, access.dataset, body);
      const dataset = await findDataset(ctx.db, access.dataset.id, request.caller.profileId);
      if (!dataset) throw notFound('Dataset not found');
      return fullBody(ctx, dataset, access.role);
    },
  });

  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/datasets/:id',
    guard: { resource: 'dataset', rel: REL.deleteDataset },
    handler: async ({ reply, access }) => {
      await deleteDataset(ctx.db, access.dataset.id);
      return reply.status(204).send();
    },
  });

  /** 'view dataset': counts one view (spec 002 §7: PUT, no body). */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datasets/:id/view',
    guard: { resource: 'dataset', rel: REL.viewDataset },
    // 204: the page that counts the view already shows the dataset; rebuilding its body here
    // (freshness included) was work the client threw away
    handler: async ({ reply, access }) => {
      await countView(ctx.db, access.dataset.id);
      return reply.status(204).send();
    },
  });

  /** 'like dataset': PUT stars (200 with the dataset), DELETE unstars (204); both are idempotent. */
  for (const method of ['PUT', 'DELETE'] as const) {
    defineRoute(app, ctx, {
      method,
      url: '/datasets/:id/like',
      guard: { resource: 'dataset', rel: REL.likeDataset },
      response: datasetSchema,
      handler: async ({ request, reply, access }) => {
        const actor = { profileId: request.caller.profileId, name: request.caller.profile?.name ?? null };
        await setDatasetLiked(ctx.db, access.dataset, actor, method === 'PUT');
        if (method === 'DELETE') return reply.status(204).send();
        const dataset = await findDataset(ctx.db, access.dataset.id, request.caller.profileId);
        if (!dataset) throw notFound('Dataset not found');
        return fullBody(ctx, dataset, access.role);
      },
    });
  }

  watchRoutes(app, ctx, {
    resource: 'dataset',
    url: '/datasets/:id/subscriptions',
    target: (access) => ({ column: 'dataset_id', id: access.dataset.id }),
    unwatch: true,
  });

  /** Datasets sharing a tag or the source channel, the most shared first. */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/related',
    guard: { resource: 'dataset', rel: REL.related },
    response: datasetsCollectionSchema,
    paging: { defaultSize: 10 },
    objectName: 'datasets',
    handler: async ({ request, access, paging }) => {
      const { items, total } = await relatedTo(ctx.db, access.dataset, paging, request.caller.profileId);
      return pagedCollectionText('datasets', items.map((d) => datasetJson(ctx, d, access.role)), paging, total, requestUrl(ctx, request));
    },
  });

  /**
   * The dataset's rows. With a query: run read-only against the workspace's default store, JSON
   * capped at DATASET_ROW_CAP rows (X-Truncated says it was cut), CSV streamed whole; 204 while a
   * table it reads has not been loaded yet. Without one: its rawData.
   */
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/data',
    guard: { resource: 'dataset', rel: REL.data },
    handler: async ({ request, reply, access }) => {
      const dataset = access.dataset;
      const csv = /text\/csv/i.test(request.headers.accept ?? '');
      if (dataset.query === null) {
        const rows = rawRows(dataset);
        if (!csv) return rows;
        const columns = csvColumns(rows);
        return csvReply(reply, dataset).send([csvLine(columns), ...rows.map((row) => csvRow(columns, row))].join(''));
      }
      const checked = await checkQuery(dataset.query).catch(unprocessable);
      if ((await missingTables(ctx.db, dataset.workspace_id, checked.tables)).length > 0) return reply.status(204).send();
      if (!csv) {
        const cap = ctx.config.env.DATASET_ROW_CAP;
        const result = await runQuery(ctx.db, dataset.workspace_id, checked, cap, limits(), untilClientLeaves(reply)).catch(unprocessable);
        if (result.truncated) reply.header('x-truncated', 'true').header('x-row-cap', String(cap));
        return result.rows;
      }
      const stream = await csvExport(ctx.db, dataset.workspace_id, checked, { ...limits(), timeoutMs: ctx.config.env.DATASET_EXPORT_TIMEOUT_MS }, untilClientLeaves(reply)).catch(unprocessable);
      return csvReply(reply, dataset).send(stream);
    },
  });

  /** The assistant: the best-matching dataset's description, alias and id, or 204 when nothing matches. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/workspaces/:id/questions',
    guard: { resource: 'workspace', rel: REL.questions },
    response: questionAnswerSchema,
    body: questionSchema,
    objectName: 'question',
    handler: async ({ request, reply, access, body }) => {
      const question = body.question?.trim() ?? '';
      rejectFieldErrors('question', { question: question === '' ? 'Question is mandatory' : question.length > 1_000 ? 'must be at most 1000 characters' : undefined });
      const id = await answerQuestion(ctx.db, access.workspace.id, question);
      const dataset = id === undefined ? undefined : await findDataset(ctx.db, id, request.caller.profileId);
      if (!dataset) return reply.status(204).send();
      const answer: Wire<typeof questionAnswerSchema> = {
        description: dataset.description,
        alias: dataset.alias,
        id: dataset.id,
        title: dataset.title,
        _links: datasetLinks(ctx.h, dataset, datasetViewer(access.role, dataset)),
      };
      return answer;
    },
  });
}
