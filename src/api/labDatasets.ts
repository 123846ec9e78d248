import { z } from 'zod';
import { PAGE_SIZES } from '../domain/constants';
import { embeddedList, type HalLike } from '../domain/hal';
import { encodeSegment } from '../domain/paths';
import { REL } from '../domain/relations';
import {
  channelsCollectionSchema,
  datasetPreviewSchema,
  datasetSchema,
  datasetsCollectionSchema,
  type Channel,
  type Dataset,
  type DatasetPatch,
  type DatasetPreview,
  type DatasetsCollection,
  type DatasetWrite,
} from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

// The Lab's datasets list and editor (issue 8, publishing): every call follows a link the server
// offered, so what the page may do and what the server allows are the same thing.

/** The Lab list's page size ('Load more' asks for the next 20). */
const LAB_DATASETS_PAGE_SIZE = 20;

/** GET the workspace's 'datasets' link, newest first, optionally searched. */
export function listLabDatasets(
  client: ApiClient,
  workspace: HalLike,
  request: { readonly page: number; readonly search?: string },
  options: RequestOptions = {},
): Promise<DatasetsCollection> {
  const search = request.search?.trim() ?? '';
  return client.follow(workspace, REL.datasets, {
    ...options,
    schema: datasetsCollectionSchema,
    query: { ...options.query, page: request.page, size: LAB_DATASETS_PAGE_SIZE, ...(search === '' ? {} : { search }) },
  });
}

export function getDatasetById(client: ApiClient, id: string, options?: RequestOptions): Promise<Dataset> {
  return client.get(`/datasets/${encodeSegment(id)}`, datasetSchema, options);
}

/** The channels a dataset can be published in (one page of 99, by the workspace's 'channels' link). */
export async function listDatasetChannels(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<Channel[]> {
  const page = await client.follow(workspace, REL.channels, { ...options, schema: channelsCollectionSchema, query: { size: PAGE_SIZES.workspaces, ...options.query } });
  return embeddedList(page, 'channels');
}

/** POST 'publish dataset' (201 new, 200 replaced). One attempt; the form shows a 400 itself. */
export async function publishDataset(client: ApiClient, workspace: HalLike, body: DatasetWrite, options: RequestOptions = {}): Promise<Dataset> {
  const saved = await client.follow(workspace, REL.publishDataset, { ...options, method: 'POST', body, schema: datasetSchema, retry: false, skipErrorHandler: true });
  if (saved === undefined) throw new TypeError("The 'publish dataset' link answered with no dataset");
  return saved;
}

/** PATCH 'edit dataset' with the changed fields. */
export async function editDataset(client: ApiClient, dataset: HalLike, patch: DatasetPatch, options: RequestOptions = {}): Promise<Dataset> {
  const saved = await client.follow(dataset, REL.editDataset, { ...options, method: 'PATCH', body: patch, schema: datasetSchema, skipErrorHandler: true });
  if (saved === undefined) throw new TypeError("The 'edit dataset' link answered with no dataset");
  return saved;
}

/** DELETE 'delete dataset' (204). */
export function deleteDataset(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<void> {
  return client.follow(dataset, REL.deleteDataset, { ...options, method: 'DELETE' });
}

/** POST 'preview dataset' with {query}: the first rows; a refused query is a 400 on field 'query'. */
export async function previewDataset(client: ApiClient, workspace: HalLike, query: string, options: RequestOptions = {}): Promise<DatasetPreview> {
  const preview = await client.follow(workspace, REL.previewDataset, { ...options, method: 'POST', body: { query }, schema: datasetPreviewSchema, skipErrorHandler: true });
  if (preview === undefined) throw new TypeError("The 'preview dataset' link answered with no preview");
  return preview;
}

const rowsSchema = z.array(z.record(z.string(), z.unknown())).optional();

/** GET the dataset's 'data' link as JSON rows; 204 (no data) is no rows. */
export async function datasetRows(client: ApiClient, dataset: HalLike, options: RequestOptions = {}): Promise<Record<string, unknown>[]> {
  return (await client.follow(dataset, REL.data, { ...options, schema: rowsSchema })) ?? [];
}
