import { listComponentsOfType } from '../../api/dataPlugins';
import type { ApiClient } from '../../api/client';
import { listAvailablePlugins, listDataComponents, type PickerPage } from '../../api/dataComponents';
import { listLabDatasets } from '../../api/labDatasets';
import { listPipelineNames } from '../../api/pipelineForm';
import { embeddedList, type HalLike } from '../../domain/hal';
import { REL } from '../../domain/relations';
import { channelSchema, channelsCollectionSchema, type Channel, type DataComponent, type Dataset, type Pipeline } from '../../domain/resources';
import { componentFromExisting, componentFromPlugin } from '../../machines/pipelineForm/editorComponents';
import type { EditorComponent } from '../../machines/pipelineForm/pipelineForm.machine';
import { useMutation } from './useMutation';
import { useQuery, type Query } from './useQuery';

// The Lab's read-only pages: the workspace's components and which pipelines use them.

type ComponentType = Parameters<typeof listComponentsOfType>[2];

/** The workspace's data components of one type (extractors, loaders, …); idle until the workspace is known. */
export function useComponentsOfType(workspace: HalLike | undefined, type: ComponentType): Query<DataComponent[]> {
  return useQuery<DataComponent[]>(workspace === undefined ? null : (client, signal) => listComponentsOfType(client, workspace, type, { signal }), [workspace, type]);
}

/** The workspace's extractors beside its pipelines (names and components), for the Data Sources page. */
export function useDataSources(workspace: HalLike | undefined): Query<{ components: DataComponent[]; pipelines: Pipeline[] }> {
  return useQuery(
    workspace === undefined
      ? null
      : async (client, signal) => {
          const [components, pipelines] = await Promise.all([listComponentsOfType(client, workspace, 'EXTRACTOR', { signal }), listPipelineNames(client, workspace, { signal })]);
          return { components, pipelines };
        },
    [workspace],
  );
}

type DatasetListing = { readonly datasets: readonly Dataset[]; readonly page: number; readonly totalPages: number; readonly total: number };

/**
 * The Lab's datasets matching `search`, a page at a time: Load more appends the next page (a
 * dataset published meanwhile shifts the pages, so each id is kept once); `reload` starts again.
 */
export function useLabDatasets(workspace: HalLike, search: string, reload: number) {
  const pageOf = (client: ApiClient, page: number, signal: AbortSignal): Promise<DatasetListing> =>
    listLabDatasets(client, workspace, { page, search }, { signal }).then((result) => ({
      datasets: embeddedList(result, 'datasets'),
      page,
      totalPages: result.page?.totalPages ?? 1,
      total: result.page?.totalElements ?? 0,
    }));
  const query = useQuery<DatasetListing>((client, signal) => pageOf(client, 0, signal), [workspace, search, reload], { keepPrevious: true });
  const loadMore = () => {
    const listing = query.data;
    if (listing === undefined) return;
    void query.follow(async (client, signal) => {
      const next = await pageOf(client, listing.page + 1, signal);
      const known = new Set(listing.datasets.map((d) => d.id));
      return { ...next, datasets: [...listing.datasets, ...next.datasets.filter((d) => !known.has(d.id))] };
    });
  };
  return { ...query, loadMore };
}

export type { PickerPage };

export type PickerRow = { readonly key: string; readonly label: string; readonly detail: string; readonly component: EditorComponent };

/**
 * One page of the pipeline form's 'Add component' picker: the workspace's existing components or
 * the catalogue's plugins, searched by name; idle while the picker is closed.
 */
export function usePickerPage(open: boolean, workspace: HalLike, tab: 'existing' | 'new', page: number, search: string): Query<PickerPage<PickerRow>> {
  return useQuery<PickerPage<PickerRow>>(
    !open
      ? null
      : (client, signal) =>
          tab === 'existing'
            ? listDataComponents(client, workspace, { page, search }, { signal }).then((p) => ({
                ...p,
                items: p.items.map((c) => ({ key: `c:${c.name}`, label: c.name, detail: c._embedded?.dataplugin?.label ?? c.pluginType ?? '', component: componentFromExisting(c) })),
              }))
            : listAvailablePlugins(client, workspace, { page, search }, { signal }).then((p) => ({
                ...p,
                items: p.items.map((d) => ({ key: `p:${d.id}`, label: d.label ?? d.name, detail: `${d.pluginType.toLowerCase()} · ${d.name}${d.variant ? ` (${d.variant})` : ''}`, component: componentFromPlugin(d) })),
              })),
    [open, workspace, tab, page, search],
  );
}

/** The workspace's channels by name; the previous list stays shown while `reload` reads it again. */
export function useLabChannels(workspace: HalLike, reload: number): Query<Channel[]> {
  return useQuery<Channel[]>(
    (client, signal) => client.follow(workspace, REL.channels, { schema: channelsCollectionSchema, query: { size: 99, sort: 'name' }, signal }).then((page) => embeddedList(page, 'channels')),
    [workspace, reload],
    { keepPrevious: true },
  );
}

/** Renames and describes a channel through its 'update channel' link. */
export function useUpdateChannel() {
  return useMutation((client, change: { channel: Channel; name: string; description: string }) =>
    client.follow(change.channel, REL.updateChannel, { method: 'PUT', body: { name: change.name, description: change.description }, schema: channelSchema }),
  );
}
