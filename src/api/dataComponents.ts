import { embeddedList, type HalLike, type Page } from '../domain/hal';
import { REL } from '../domain/relations';
import { dataComponentsCollectionSchema, dataPluginsCollectionSchema, type DataComponent, type DataPlugin } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

// The component picker's two lists (spec 001 §2 'Component picker dialog'): the workspace's
// existing components, and the plugins a new component can be made from. Both are paged and
// searched by name.

const PICKER_PAGE_SIZE = 10;

export interface PickerPage<T> {
  readonly items: T[];
  /** 0-based */
  readonly number: number;
  readonly totalPages: number;
}

interface PickerQuery {
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
 * GET the workspace's installed plugins ('dataplugins') sorted by label, searched by name: a
 * component is made from an installed plugin ('availabledataplugins' lists the catalogue's others,
 * which the plugin catalogue page installs first).
 */
export async function listAvailablePlugins(client: ApiClient, workspace: HalLike, query: PickerQuery, options: RequestOptions = {}): Promise<PickerPage<DataPlugin>> {
  const page = await client.follow(workspace, REL.dataplugins, {
    ...options,
    schema: dataPluginsCollectionSchema,
    query: { sort: 'label', page: query.page, size: PICKER_PAGE_SIZE, ...searchQuery(query.search) },
  });
  return pageOf(embeddedList(page, 'dataplugins'), page.page, query.page);
}
