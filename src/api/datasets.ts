import { z } from 'zod';
import { alertRulesSchema, type AlertRuleInput } from '../domain/alertRules';
import { PAGE_SIZES } from '../domain/constants';
import { embeddedList, linkHref, type HalLike } from '../domain/hal';
import { datasetPathPart } from '../domain/landing';
import { encodeSegment } from '../domain/paths';
import { REL } from '../domain/relations';
import {
  channelSchema,
  channelsCollectionSchema,
  channelWriteSchema,
  datasetPatchSchema,
  datasetSchema,
  datasetsCollectionSchema,
  tagsCollectionSchema,
  type Channel,
  type Dataset,
  type DatasetPatch,
  type DatasetsCollection,
  type SubscriptionType,
  type Tag,
} from '../domain/resources';
import { stripQuotes } from '../domain/searchQuery';
import { required, type ApiClient, type RequestOptions } from './client';
import { ApiFailure, toApiError, UNKNOWN } from './errors';

const workspacePath = (id: string): string => `/workspaces/${encodeSegment(id)}`;

/** GET /workspaces/{id}/feed?page=&size=10. */
export function feed(client: ApiClient, workspaceId: string, page = 0, options: RequestOptions = {}): Promise<DatasetsCollection> {
  return client.get(`${workspacePath(workspaceId)}/feed`, datasetsCollectionSchema, {
    ...options,
    query: { ...options.query, page, size: PAGE_SIZES.feed },
  });
}

/** GET /workspaces/{id}/tags: the workspace's tags, most used first (one page of up to 99). */
export async function workspaceTagList(client: ApiClient, workspaceId: string, options: RequestOptions = {}): Promise<Tag[]> {
  const page = await client.get(`${workspacePath(workspaceId)}/tags`, tagsCollectionSchema, { ...options, query: { ...options.query, page: 0, size: 99 } });
  return page._embedded?.tags ?? [];
}

type SearchRequest = { readonly q: string; readonly page?: number; readonly size?: number };

/** GET /workspaces/{id}/search?q=: the quotes the toolbar adds are stripped before the request. */
export function search(client: ApiClient, workspaceId: string, request: SearchRequest, options: RequestOptions = {}): Promise<DatasetsCollection> {
  return client.get(`${workspacePath(workspaceId)}/search`, datasetsCollectionSchema, {
    ...options,
    query: { ...options.query, q: stripQuotes(request.q), page: request.page ?? 0, size: request.size ?? PAGE_SIZES.feed },
  });
}

/** GET /workspaces/{ws}/datasets/{idOrAlias}: each alias part is encoded, its slashes kept. */
export function getDataset(client: ApiClient, workspaceId: string, idOrAlias: string, options?: RequestOptions): Promise<Dataset> {
  // Only empty and dot parts remain: no URL can name them, so there is no request to make.
  if (datasetPathPart(idOrAlias) === '') return Promise.reject(new ApiFailure(UNKNOWN));
  return client.get(`${workspacePath(workspaceId)}/datasets/${datasetPathPart(idOrAlias)}`, datasetSchema, options);
}

// ---- The dataset page (spec 002 §7). Every call follows a link of the resource it acts on. ----

/** One row of a dataset's data: keys like 'month' or 'customer.visitors'. */
export type DataRow = Readonly<Record<string, unknown>>;
const rowsSchema = z.array(z.record(z.string(), z.unknown())).optional();

/** Re-reads a dataset through its self link. */
export function reloadDataset(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<Dataset> {
  return client.follow(dataset, REL.self, { ...options, schema: datasetSchema });
}

/** PUT 'view dataset' (no body): counts a view; a 404 (the dataset went away) is ignored. */
export async function recordView(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<void> {
  try {
    await client.follow(dataset, REL.viewDataset, { ...options, method: 'PUT', skipErrorHandler: true });
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.kind === 'missingLink' || (apiError.kind === 'response' && apiError.status === 404)) return;
    throw error;
  }
}

/** GET 'data': JSON rows, [] on 204 (no data). */
export async function datasetRows(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<DataRow[]> {
  return (await client.follow(dataset, REL.data, { ...options, schema: rowsSchema })) ?? [];
}

/** PUT 'like dataset' to star, DELETE to unstar. */
export function setLiked(client: ApiClient, dataset: HalLike, liked: boolean, options: RequestOptions = {}): Promise<void> {
  return client.follow(dataset, REL.likeDataset, { ...options, method: liked ? 'PUT' : 'DELETE' });
}

/** POST 'add subscription' with {type}: watch for ALERTS or ALL activity (one attempt). */
export function watchDataset(client: ApiClient, dataset: HalLike, type: SubscriptionType, options: RequestOptions = {}): Promise<void> {
  return client.follow(dataset, REL.addSubscription, { ...options, method: 'POST', body: { type }, retry: false });
}

/** DELETE 'delete subscription'. */
export function unwatchDataset(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<void> {
  return client.follow(dataset, REL.deleteSubscription, { ...options, method: 'DELETE' });
}

/** PATCH 'edit dataset' with a subset of the write body; the answer, or the dataset read again. */
export async function editDataset(client: ApiClient, dataset: HalLike, patch: DatasetPatch, options: RequestOptions = {}): Promise<Dataset> {
  const saved = await client.follow(dataset, REL.editDataset, { ...options, method: 'PATCH', body: datasetPatchSchema.parse(patch), schema: datasetSchema });
  return saved ?? reloadDataset(client, dataset, options);
}

/** DELETE 'delete dataset' (204). */
export function deleteDataset(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<void> {
  return client.follow(dataset, REL.deleteDataset, { ...options, method: 'DELETE' });
}

/** GET 'related': datasets sharing a tag or the channel. */
export async function relatedDatasets(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<Dataset[]> {
  return embeddedList(await client.follow(dataset, REL.related, { ...options, schema: datasetsCollectionSchema }), 'datasets');
}

// ---- Lists ('Add to list') ----

/** The caller's lists, each saying whether it holds the dataset (`?type=LIST&dataset=`). */
export async function listsForDataset(client: ApiClient, workspace: HalLike, datasetId: string, options: RequestOptions = {}): Promise<Channel[]> {
  const page = await client.follow(workspace, REL.channels, {
    ...options,
    schema: channelsCollectionSchema,
    query: { type: 'LIST', dataset: datasetId, size: LISTS_PAGE_SIZE, ...options.query },
  });
  return embeddedList(page, 'channels');
}
/** The dialog searches in one page of lists; a member with more than this narrows by search. */
const LISTS_PAGE_SIZE = 99;

/** PUT `{list's datasets href}/{datasetId}` adds, DELETE on the same path removes. */
export async function setInList(client: ApiClient, list: HalLike, datasetId: string, inList: boolean, options: RequestOptions = {}): Promise<void> {
  const href = linkHref(list, REL.datasets, `${client.baseURL}/`);
  if (href === undefined) throw new ApiFailure({ kind: 'missingLink', rel: REL.datasets });
  const url = `${href.replace(/\/+$/, '')}/${encodeSegment(datasetId)}`;
  await (inList ? client.put(url, undefined, undefined, options) : client.delete(url, undefined, undefined, options));
}

/** PUT the workspace's 'create channel' with a new private list (one attempt). */
export async function createList(client: ApiClient, workspace: HalLike, name: string, options: RequestOptions = {}): Promise<Channel> {
  const body = channelWriteSchema.parse({ name, description: '', type: 'LIST', scope: 'PROFILE' });
  const created = await client.follow(workspace, REL.createChannel, { ...options, method: 'PUT', body, schema: channelSchema, retry: false });
  return required(created, 'create channel');
}

const alertsSchema = z.looseObject({
  _embedded: z.looseObject({ alerts: z.array(z.looseObject({ id: z.string().nullish(), raised: z.string().nullish(), detail: z.string().nullish() })).nullish() }).nullish(),
});
export type DatasetAlert = { readonly id?: string | null | undefined; readonly raised?: string | null | undefined; readonly detail?: string | null | undefined };

/** GET the dataset's 'alerts' link: `_embedded.alerts` (spec 002 §7). */
export async function datasetAlerts(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<DatasetAlert[]> {
  const page = await client.follow(dataset, REL.alerts, { ...options, schema: alertsSchema.optional() });
  return page?._embedded?.alerts ?? [];
}

/** GET the dataset's 'alert rules' link: its threshold rules, with 'update alert rules' for those who may change them. */
export function datasetAlertRules(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<AlertRules> {
  return client.follow(dataset, REL.alertRules, { ...options, schema: alertRulesSchema });
}

/** PUT 'update alert rules' with the whole set; a 400 carries field errors such as rules.0.column. */
export async function saveAlertRules(client: ApiClient, rules: HalLike, input: readonly AlertRuleInput[], options: RequestOptions = {}): Promise<AlertRules> {
  return required(await client.follow(rules, REL.updateAlertRules, { ...options, method: 'PUT', body: { rules: input }, schema: alertRulesSchema }), 'the saved alert rules');
}
export type AlertRules = z.infer<typeof alertRulesSchema>;
