import { z } from 'zod';
import { embeddedList, type HalLike } from '../domain/hal';
import { REL } from '../domain/relations';
import { dataComponentsCollectionSchema, dataPluginSchema, dataPluginsCollectionSchema, type DataComponent, type DataPlugin } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

// The plugin catalogue's calls (spec 001 §7 'Plugins and components'): the workspace's installed
// and available plugins, paged by 20 and sorted by label; install by 'add dataplugin'; remove by
// 'delete dataplugin'; publish a discovery.yml as text/x-yaml.

const CATALOGUE_PAGE_SIZE = 20;

interface PluginQuery {
  readonly installed: boolean;
  /** 0-based */
  readonly page: number;
  readonly search: string;
  readonly type: string | null;
}

interface PluginPage {
  readonly items: DataPlugin[];
  readonly totalElements: number;
  readonly totalPages: number;
}

export async function listPlugins(client: ApiClient, workspace: HalLike, query: PluginQuery, options: RequestOptions = {}): Promise<PluginPage> {
  const rel = query.installed ? REL.dataplugins : REL.availableDataplugins;
  const search = query.search.trim();
  const page = await client.follow(workspace, rel, {
    ...options,
    schema: dataPluginsCollectionSchema,
    query: { sort: 'label', size: CATALOGUE_PAGE_SIZE, page: query.page, ...(search === '' ? {} : { name: search }), ...(query.type === null ? {} : { type: query.type }) },
  });
  const items = embeddedList(page, 'dataplugins');
  return { items, totalElements: page.page?.totalElements ?? items.length, totalPages: page.page?.totalPages ?? 1 };
}

/** PUT 'add dataplugin': installs the plugin in the workspace. */
export async function installPlugin(client: ApiClient, plugin: DataPlugin, options: RequestOptions = {}): Promise<void> {
  await client.follow(plugin, REL.addDataplugin, { ...options, method: 'PUT', schema: dataPluginSchema.optional() });
}

/** DELETE 'delete dataplugin' (offered while canDelete holds). */
export async function deletePlugin(client: ApiClient, plugin: DataPlugin, options: RequestOptions = {}): Promise<void> {
  await client.follow(plugin, REL.deleteDataplugin, { ...options, method: 'DELETE' });
}

const publishedSchema = z.looseObject({ _embedded: z.looseObject({ dataplugins: z.array(dataPluginSchema) }).nullish() });

/**
 * POST 'publish discovery.yml' with the YAML text (text/x-yaml): the plugins it published, none on
 * 204. The caller shows a 400's errors itself, so the shared handler stays out.
 */
export async function publishDiscovery(client: ApiClient, workspace: HalLike, yaml: string, options: RequestOptions = {}): Promise<DataPlugin[]> {
  const answer = await client.follow(workspace, REL.publishDiscovery, {
    ...options,
    method: 'POST',
    body: yaml,
    headers: { 'Content-Type': 'text/x-yaml' },
    schema: publishedSchema,
    skipErrorHandler: true,
    retry: false,
  });
  return answer?._embedded?.dataplugins ?? [];
}

/** The workspace's data components of one plugin type (the project and data sources pages; spec §9: 99). */
export async function listComponentsOfType(client: ApiClient, workspace: HalLike, type: string, options: RequestOptions = {}): Promise<DataComponent[]> {
  const page = await client.follow(workspace, REL.datacomponents, { ...options, schema: dataComponentsCollectionSchema, query: { type, size: 99 } });
  return embeddedList(page, 'datacomponents');
}
