import { embeddedList, hasLink, type HalLike, type Page } from '../domain/hal';
import { REL } from '../domain/relations';
import { dataComponentsCollectionSchema, dataPluginsCollectionSchema, type DataComponent, type DataPlugin } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

// The component picker's two lists (spec 001 §2 'Component picker dialog'): the workspace's
// existing components, and the plugins a new component can be made from. Both are paged and
// searched by name.

export const PICKER_PAGE_SIZE = 10;

export interface PickerPage<T> {
  readonly items: T[];
  /** 0-based */
  readonly number: number;
  readonly totalPages: number;
}

export interface PickerQuery {
  /** 0-based page */
  readonly page: number;
  readonly search: string;
}

function pageOf<T>(items: T[], page: Page | undefined, asked: number): PickerPage<T> {
  return { items, number: page?.number ?? asked, totalPages: page?.totalPages ?? (items.length > 0 ? asked + 1 : 0) };
}

const searchQuery = (search: string) => (search.trim() === '' ? {} : { name: search.trim() });

/** GET the workspace's 'datacomponents' link. */
export async function listDataComponents(client: ApiClient, workspace: HalLike, query: PickerQuery, options: RequestOptions = {}): Promise<PickerPage<DataComponent>> {
  const page = await client.follow(workspace, REL.datacomponents, {
    ...options,
    schema: dataComponentsCollectionSchema,
    query: { page: query.page, size: PICKER_PAGE_SIZE, ...searchQuery(query.search) },
  });
  return pageOf(embeddedList(page, 'datacomponents'), page.page, query.page);
}

/**
 * GET the workspace's 'availabledataplugins' link sorted by label (spec §7), searched by name; a
 * server whose catalogue is its installed plugins offers only 'dataplugins', which is read instead.
 */
export async function listAvailablePlugins(client: ApiClient, workspace: HalLike, query: PickerQuery, options: RequestOptions = {}): Promise<PickerPage<DataPlugin>> {
  const rel = hasLink(workspace, REL.availableDataplugins) ? REL.availableDataplugins : REL.dataplugins;
  const page = await client.follow(workspace, rel, {
    ...options,
    schema: dataPluginsCollectionSchema,
    query: { sort: 'label', page: query.page, size: PICKER_PAGE_SIZE, ...searchQuery(query.search) },
  });
  return pageOf(embeddedList(page, 'dataplugins'), page.page, query.page);
}
