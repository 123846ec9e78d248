import type { ApiClient } from '../../api/client';
import { createList, datasetAlerts, datasetRows, getDataset, listsForDataset, relatedDatasets, setInList, type DataRow, type DatasetAlert } from '../../api/datasets';
import { toApiError } from '../../api/errors';
import { deleteDataset } from '../../api/labDatasets';
import { listMembers } from '../../api/workspaces';
import { hasLink, type HalLike } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Channel, Dataset, Member } from '../../domain/resources';
import { failureText } from '../../machines/failureText';
import { exportDataset } from './exportDataset';
import { useMutation } from './useMutation';
import { useQuery, type Query } from './useQuery';

// Reads and one-off changes around datasets that no machine owns: the side panel's tabs, a
// dashboard's embedded datasets, the Lab card's preview, lists, the help page and @mentions.

export type { DataRow, DatasetAlert };

/** What the server said when it refused (its error body's message), else the catalogue's words. */
function serverWords(failure: unknown): string {
  const apiError = toApiError(failure);
  return apiError.kind === 'response' && apiError.body?.message ? apiError.body.message : failureText(failure);
}

/** The dataset's alerts, idle when it offers no 'alerts' link. */
export function useDatasetAlerts(dataset: Dataset): Query<DatasetAlert[]> {
  return useQuery<DatasetAlert[]>(hasLink(dataset, REL.alerts) ? (client, signal) => datasetAlerts(client, dataset, { signal }) : null, [dataset]);
}

/** Datasets related to this one, idle when it offers no 'related' link. */
export function useRelatedDatasets(dataset: Dataset): Query<Dataset[]> {
  return useQuery<Dataset[]>(hasLink(dataset, REL.related) ? (client, signal) => relatedDatasets(client, dataset, { signal }) : null, [dataset]);
}

/** A dataset by alias and, when it has a data link, its rows (a dashboard block). Failures name the alias. */
export function useDatasetByAlias(workspaceId: string, alias: string): Query<{ dataset: Dataset; rows: readonly DataRow[] }> {
  return useQuery(
    async (client, signal) => {
      try {
        const dataset = await getDataset(client, workspaceId, alias, { signal, skipErrorHandler: true });
        const rows = hasLink(dataset, REL.data) ? await datasetRows(client, dataset, { signal, skipErrorHandler: true }) : [];
        return { dataset, rows };
      } catch (failure) {
        throw new Error(`${alias}: ${failureText(failure)}`, { cause: failure });
      }
    },
    [workspaceId, alias],
  );
}

/** Exports the dataset named by alias as a file (spec 002 §7's Export, for a dashboard's DownloadDataset). */
export function useDownloadDataset(workspaceId: string) {
  return useMutation(async (client: ApiClient, alias: string) => exportDataset(client, await getDataset(client, workspaceId, alias, { skipErrorHandler: true })));
}

/** Exports the dataset (spec 002 §7). */
export function useExportDataset() {
  return useMutation((client: ApiClient, dataset: Dataset) => exportDataset(client, dataset));
}

type PreviewRows = { readonly rows: readonly DataRow[] | undefined } | { readonly refused: string };

/**
 * The rows a Lab card or a feed's Large card previews, read once the card is in view (one read;
 * the Lab card passes `reload` to read again). A refused read shows the server's words; raw data
 * that is not rows (a mermaid diagram's text) is drawn from the dataset itself.
 */
export function usePreviewRows(dataset: Dataset, visible: boolean, reload = 0): Query<PreviewRows> {
  const wanted = visible && hasLink(dataset, REL.data);
  return useQuery<PreviewRows>(
    wanted
      ? (client, signal) =>
          datasetRows(client, dataset, { signal, skipErrorHandler: true }).then(
            (rows): PreviewRows => ({ rows }),
            (failure: unknown): PreviewRows => {
              if (signal.aborted) throw failure;
              return (dataset.rawData ?? '').trim() !== '' ? { rows: [] } : { refused: serverWords(failure) };
            },
          )
      : null,
    [dataset, reload],
  );
}

/** Deletes the dataset through its 'delete dataset' link. */
export function useDeleteDataset() {
  return useMutation((client: ApiClient, dataset: Dataset) => deleteDataset(client, dataset, { skipErrorHandler: true }));
}

/** The help page's dataset description; a missing dataset is not an error (the fixed help shows). */
export function useHelpDescription(workspaceId: string, alias: string): Query<{ description: string } | { missing: true }> {
  return useQuery(
    alias === ''
      ? null
      : (client, signal) =>
          getDataset(client, workspaceId, alias, { signal, skipErrorHandler: true }).then(
            (dataset) => ({ description: dataset.description ?? '' }),
            (failure: unknown) => {
              const error = toApiError(failure);
              if (error.kind === 'response' && error.status === 404) return { missing: true as const };
              throw failure;
            },
          ),
    [workspaceId, alias],
  );
}

/**
 * The caller's lists, each saying whether it holds the dataset; toggling and creating change the
 * server and then the shown lists, one change at a time (resolves true when it landed).
 */
export function useListsForDataset(workspace: HalLike, datasetId: string) {
  const query = useQuery<Channel[]>((client, signal) => listsForDataset(client, workspace, datasetId, { signal }), [workspace, datasetId]);
  const toggle = (list: Channel, inList: boolean) =>
    query.follow(async (client) => {
      await setInList(client, list, datasetId, inList);
      return (query.data ?? []).map((l) => (l.id === list.id ? { ...l, containsDataset: inList } : l));
    });
  const create = (name: string) =>
    query.follow(async (client, signal) => {
      const created = await createList(client, workspace, name);
      await setInList(client, created, datasetId, true);
      return listsForDataset(client, workspace, datasetId, { signal });
    });
  return { ...query, toggle, create };
}

/** The workspace's members, for @mention suggestions: a help, not the thread, so a failure is no members. */
export function useMentionableMembers(workspaceId: string): readonly Member[] {
  const query = useQuery<Member[]>((client, signal) => listMembers(client, workspaceId, { signal, query: { size: 999 } }).catch(() => []), [workspaceId]);
  return query.data ?? NO_MEMBERS;
}

const NO_MEMBERS: readonly Member[] = [];
