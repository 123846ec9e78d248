import { PAGE_SIZES } from '../domain/constants';
import { datasetPathPart } from '../domain/landing';
import { encodeSegment } from '../domain/paths';
import { datasetSchema, datasetsCollectionSchema, type Dataset, type DatasetsCollection } from '../domain/resources';
import { stripQuotes } from '../domain/searchQuery';
import type { ApiClient, RequestOptions } from './client';
import { ApiFailure, UNKNOWN } from './errors';

const workspacePath = (id: string): string => `/workspaces/${encodeSegment(id)}`;

/** GET /workspaces/{id}/feed?page=&size=10. */
export function feed(client: ApiClient, workspaceId: string, page = 0, options: RequestOptions = {}): Promise<DatasetsCollection> {
  return client.get(`${workspacePath(workspaceId)}/feed`, datasetsCollectionSchema, {
    ...options,
    query: { ...options.query, page, size: PAGE_SIZES.feed },
  });
}

export type SearchRequest = { readonly q: string; readonly page?: number; readonly size?: number };

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
