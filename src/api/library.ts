import { PAGE_SIZES } from '../domain/constants';
import { embeddedList, hasLink, type HalLike } from '../domain/hal';
import { newsCollectionSchema, type NewsCollection } from '../domain/library';
import { encodeSegment } from '../domain/paths';
import { REL } from '../domain/relations';
import { channelSchema, channelsCollectionSchema, channelWriteSchema, datasetsCollectionSchema, type Channel, type DatasetsCollection } from '../domain/resources';
import { required, type ApiClient, type RequestOptions } from './client';

// Starred, News, Channels and the Library (spec 002 §7).

const workspacePath = (id: string): string => `/workspaces/${encodeSegment(id)}`;

/** Channels a page shows at once: the slider and the library list read one page. */
const CHANNELS_PAGE_SIZE = 99;

/** GET /workspaces/{id}/liked: the caller's starred datasets, the latest first. */
export function liked(client: ApiClient, workspaceId: string, options: RequestOptions = {}): Promise<DatasetsCollection> {
  return client.get(`${workspacePath(workspaceId)}/liked`, datasetsCollectionSchema, { ...options, query: { page: 0, size: PAGE_SIZES.feed, ...options.query } });
}

/** GET /workspaces/{id}/news[?q=in:{channel}]. */
export function news(client: ApiClient, workspaceId: string, q: string, options: RequestOptions = {}): Promise<NewsCollection> {
  return client.get(`${workspacePath(workspaceId)}/news`, newsCollectionSchema, {
    ...options,
    query: { ...(q === '' ? {} : { q }), page: 0, size: PAGE_SIZES.feed, ...options.query },
  });
}

/** GET /workspaces/{id}/news/channels: the chips of the news. */
export async function newsChannels(client: ApiClient, workspaceId: string, options: RequestOptions = {}): Promise<Channel[]> {
  const page = await client.get(`${workspacePath(workspaceId)}/news/channels`, channelsCollectionSchema, { ...options, query: { size: CHANNELS_PAGE_SIZE } });
  return embeddedList(page, 'channels');
}

/** The workspace's channels of one type (LIST or SOURCE) the caller can see, the latest changed first. */
export async function channelsOfType(client: ApiClient, workspace: HalLike, type: 'LIST' | 'SOURCE', options: RequestOptions = {}): Promise<Channel[]> {
  const page = await client.follow(workspace, REL.channels, {
    ...options,
    schema: channelsCollectionSchema,
    query: { type, size: CHANNELS_PAGE_SIZE, sort: 'lastModified,desc', ...options.query },
  });
  return embeddedList(page, 'channels');
}

/** GET the channel's 'datasets' link: its first page. */
export function channelDatasets(client: ApiClient, channel: HalLike, options: RequestOptions = {}): Promise<DatasetsCollection> {
  return client.follow(channel, REL.datasets, { ...options, schema: datasetsCollectionSchema, query: { page: 0, size: PAGE_SIZES.feed, ...options.query } });
}

type ListFields = { readonly name: string; readonly description: string };

/** PUT 'create channel' with {name, description, type: 'LIST', scope: 'PROFILE'}: a new private list. */
export async function createLibraryList(client: ApiClient, workspace: HalLike, fields: ListFields, options: RequestOptions = {}): Promise<Channel> {
  const body = channelWriteSchema.parse({ ...fields, type: 'LIST', scope: 'PROFILE' });
  return required(await client.follow(workspace, REL.createChannel, { ...options, method: 'PUT', body, schema: channelSchema, retry: false }), 'create channel');
}

/** PUT 'update channel' with {name, description}: rename a list. */
export async function renameList(client: ApiClient, list: HalLike, fields: ListFields, options: RequestOptions = {}): Promise<Channel> {
  const body = channelWriteSchema.parse(fields);
  return required(await client.follow(list, REL.updateChannel, { ...options, method: 'PUT', body, schema: channelSchema }), 'update channel');
}

/** DELETE 'delete channel'. */
export function deleteList(client: ApiClient, list: HalLike, options: RequestOptions = {}): Promise<void> {
  return client.follow(list, REL.deleteChannel, { ...options, method: 'DELETE' });
}

/** PUT the scope link the list offers: 'add workspace-scope' (public) or 'withdraw workspace-scope' (private). */
export async function toggleScope(client: ApiClient, list: HalLike, options: RequestOptions = {}): Promise<Channel> {
  const rel = hasLink(list, REL.addWorkspaceScope) ? REL.addWorkspaceScope : REL.withdrawWorkspaceScope;
  return required(await client.follow(list, rel, { ...options, method: 'PUT', schema: channelSchema }), rel);
}
