import { z } from 'zod';
import { appProperty, type WithAppProperties } from './appProperties';
import { pagedCollection } from './hal';
import { datasetSchema, notificationSchema, type Dataset } from './resources';
import { stripQuotes } from './searchQuery';

// Rules of Starred, News, Channels and the Library (spec 002 §2, §9): their texts word for word,
// page titles from workspace properties, the channel filter `in:{name}` and the slider's width.

export const LIBRARY_TEXT = {
  noStarred: 'No starred datasets.',
  noNews: 'No news. Watch some datasets to start receiving news.',
  noDatasets: 'No datasets.',
  deleteList: 'Remove this list from the workspace...',
  nameRequired: 'Name is required',
  all: 'All',
  // not in the spec: the library's tabs when they have nothing to show
  noLists: 'You have no lists yet.',
  noChannels: 'No channels.',
  // the Channels page of a workspace without channels says why its row of channels is empty (issue 38)
  noChannelsYet: 'No channels yet. Channels group the datasets published here; an administrator adds them in the Lab.',
} as const;

export const PAGE_TITLE_PROPERTY = {
  starred: 'STARRED_PAGE_TITLE',
  news: 'NEWS_PAGE_TITLE',
  channels: 'CHANNELS_PAGE_TITLE',
  library: 'LIBRARY_PAGE_TITLE',
} as const;
const LIBRARY_LIST_INFO_ITEM_TEXT = 'LIBRARY_LIST_INFO_ITEM_TEXT';

const DEFAULT_TITLE: Record<keyof typeof PAGE_TITLE_PROPERTY, string> = { starred: 'Starred', news: 'News', channels: 'Channels', library: 'Library' };

/** A page's title: its workspace property when set (not blank), else the page's name. */
export function pageTitle(workspace: WithAppProperties, page: keyof typeof PAGE_TITLE_PROPERTY): string {
  const value = appProperty(workspace, PAGE_TITLE_PROPERTY[page])?.trim();
  return value === undefined || value === '' ? DEFAULT_TITLE[page] : value;
}

/** The library's info text beside the lists (LIBRARY_LIST_INFO_ITEM_TEXT), if any. */
export function listInfoText(workspace: WithAppProperties): string | undefined {
  const value = appProperty(workspace, LIBRARY_LIST_INFO_ITEM_TEXT)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** A channel name as search writes it (spec 000 §5): lowercased, spaces as hyphens, quotes gone. */
export function channelTerm(name: string): string {
  return stripQuotes(name).toLowerCase().replace(/\s+/g, '-');
}

/** The search that selects a channel: `in:{name}`. */
export function channelSearch(name: string): string {
  return `in:${channelTerm(name)}`;
}

/** The channel a search selects (`in:{name}` at its start), matched the way search matches names. */
export function selectedChannel<C extends { readonly name: string }>(search: string, channels: readonly C[]): C | undefined {
  const match = /^\s*in:(\S+)/i.exec(stripQuotes(search));
  if (!match?.[1]) return undefined;
  const term = match[1].toLowerCase();
  return channels.find((channel) => channelTerm(channel.name) === term);
}

/** Clicking a channel selects it; clicking the selected one again clears the selection and the search. */
export function toggledSearch(current: string, channels: readonly { readonly name: string }[], clicked: string): string {
  return selectedChannel(current, channels)?.name === clicked ? '' : channelSearch(clicked);
}

/** The channel slider's icons per width (spec 002 §9): 16, 13 below 1199 px, 9 below 991, 7 below 575, 5 below 480. */
export function channelSlides(width: number): number {
  if (!Number.isFinite(width) || width < 480) return 5;
  if (width < 575) return 7;
  if (width < 991) return 9;
  if (width < 1199) return 13;
  return 16;
}

/** A news text taller than this gets a Read More control (spec 002 §9). */
const READ_MORE_HEIGHT_PX = 38;

export function needsReadMore(scrollHeight: number): boolean {
  return Number.isFinite(scrollHeight) && scrollHeight > READ_MORE_HEIGHT_PX;
}

/** A list's name as the dialog sends it: trimmed; undefined when nothing is left (the name is required). */
export function listName(text: string): string | undefined {
  const name = text.trim();
  return name === '' ? undefined : name.slice(0, 200);
}

/** A news item (spec 002 §7 GET news): a notification with the dataset it is about embedded. */
export const newsItemSchema = notificationSchema.extend({
  _embedded: z.looseObject({ dataset: datasetSchema.nullish() }).nullish(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;
export const newsCollectionSchema = pagedCollection('notifications', newsItemSchema);
export type NewsCollection = z.infer<typeof newsCollectionSchema>;

/** Items without an embedded dataset are dropped (spec 002 §7), whatever the server sent. */
export function newsWithDatasets(page: NewsCollection | null | undefined): (NewsItem & { _embedded: { dataset: Dataset } })[] {
  const items = page?._embedded?.notifications ?? [];
  return items.filter((item): item is NewsItem & { _embedded: { dataset: Dataset } } => item._embedded?.dataset !== null && item._embedded?.dataset !== undefined);
}
