import { Button, makeStyles, MessageBar, MessageBarActions, MessageBarBody, SearchBox, Spinner, Toast, Toaster, ToastTitle, tokens, useId, useToastController } from '@fluentui/react-components';
import { AddRegular, DatabaseRegular } from '@fluentui/react-icons';
import { useCallback, useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { hasLink } from '../../../../domain/hal';
import { DATASET_FORM_TEXTS } from '../../../../domain/datasetEditor';
import { REL } from '../../../../domain/relations';
import type { Dataset } from '../../../../domain/resources';
import { snackbarMs } from '../../../../domain/workspaceForm';
import { pathTo } from '../../../../domain/routes';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { useLabDatasets } from '../../../data/lab';
import { useRoute } from '../../../shell/useRoute';
import { useCurrentWorkspace } from '../../../shell/useWorkspace';
import { DatasetCard } from './DatasetCard';
import { DatasetEditor } from './DatasetEditor';

export const EMPTY_TEXT = 'No datasets yet. Publish one with New dataset.';
const SEARCH_DELAY_MS = 300;

const useStyles = makeStyles({
  tools: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', flexWrap: 'wrap', marginBottom: tokens.spacingVerticalL },
  search: { flexGrow: 1, maxWidth: '420px', minWidth: '180px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: tokens.spacingHorizontalL },
  more: { display: 'flex', justifyContent: 'center', marginTop: tokens.spacingVerticalL },
  emptyIcon: { fontSize: '40px', color: tokens.colorBrandForeground1 },
});

/**
 * /lab/{workspaceId}/datasets: the datasets an admin publishes (issue 8). Only a workspace that
 * offers 'publish dataset' shows it; ?search filters, ?edit={id|new} opens the editor.
 */
export default function LabDatasetsPage() {
  const workspace = useCurrentWorkspace();
  const route = useRoute();
  const query = route?.name === 'labDatasets' ? route.query : {};
  if (workspace === undefined || !hasLink(workspace, REL.publishDataset)) return <Navigate to={pathTo('root')} replace />;
  return <DatasetsList key={workspace.id} workspace={workspace} search={query.search ?? ''} edit={query.edit ?? null} table={query.table ?? null} />;
}

function DatasetsList({ workspace, search, edit, table }: { workspace: NonNullable<ReturnType<typeof useCurrentWorkspace>>; search: string; edit: string | null; table: string | null }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const workspaceId = workspace.id;
  const [typed, setTyped] = useState(search);
  const [reload, setReload] = useState(0);
  const datasets = useLabDatasets(workspace, search, reload);
  const listing = datasets.data ?? null;
  const loadingMore = datasets.following;
  const error = datasets.state.status === 'failed' ? datasets.state.message : null;
  const toasterId = useId('lab-datasets-toaster');
  const { dispatchToast } = useToastController(toasterId);

  const go = useCallback(
    (next: { search?: string; edit?: string | null }) => {
      const searchText = next.search ?? search;
      const editId = next.edit === undefined ? edit : next.edit;
      // Typing and closing the editor replace the entry: Back leaves the list rather than replaying keystrokes or reopening a saved form.
      const replace = next.search !== undefined || next.edit === null;
      void navigate(pathTo('labDatasets', { workspaceId }, { ...(searchText === '' ? {} : { search: searchText }), ...(editId === null ? {} : { edit: editId }) }), { replace });
    },
    [navigate, workspaceId, search, edit],
  );

  // The box writes ?search once typing rests; the URL is what the list answers, so a search
  // changed from outside (a link, Back) is written back into the box.
  useEffect(() => {
    setTyped((current) => (current.trim() === search ? current : search));
  }, [search]);
  useEffect(() => {
    if (typed.trim() === search) return undefined;
    const timer = setTimeout(() => go({ search: typed.trim() }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, search, go]);

  const loadMore = datasets.loadMore;

  const refresh = useCallback(() => setReload((n) => n + 1), []);
  const closeEditor = useCallback(() => go({ edit: null }), [go]);
  const onSaved = useCallback(
    (dataset: Dataset) => {
      dispatchToast(
        <Toast>
          <ToastTitle>{DATASET_FORM_TEXTS.saved(dataset.title)}</ToastTitle>
        </Toast>,
        { intent: 'success', timeout: snackbarMs(workspace) },
      );
      closeEditor();
      refresh();
    },
    [closeEditor, refresh, dispatchToast, workspace],
  );

  const newButton = (
    <Button appearance="primary" icon={<AddRegular />} onClick={() => go({ edit: 'new' })}>
      New dataset
    </Button>
  );

  return (
    <>
      <Toaster toasterId={toasterId} />
      <PageHeader title="Datasets" actions={newButton} />
      <div className={styles.tools}>
        <SearchBox className={styles.search} placeholder="Search datasets..." aria-label="Search datasets" value={typed} onChange={(_, data) => setTyped(data.value)} />
        {listing !== null && <span>{`${String(listing.total)} ${listing.total === 1 ? 'dataset' : 'datasets'}`}</span>}
      </div>
      {error !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={refresh}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {listing === null ? (
        error === null && <Spinner label="Loading datasets" />
      ) : listing.datasets.length === 0 ? (
        <EmptyState>
          <DatabaseRegular className={styles.emptyIcon} />
          {search === '' ? EMPTY_TEXT : `No datasets match '${search}'.`}
        </EmptyState>
      ) : (
        <div className={styles.grid}>
          {listing.datasets.map((dataset) => (
            <DatasetCard key={`${dataset.id}:${dataset.lastModified ?? ''}`} dataset={dataset} workspaceId={workspaceId} onEdit={() => go({ edit: dataset.id })} onDeleted={refresh} />
          ))}
        </div>
      )}
      {listing !== null && listing.page + 1 < listing.totalPages && (
        <div className={styles.more}>
          <Button disabled={loadingMore} onClick={loadMore}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      )}
      {edit !== null && (
        <DatasetEditor
          key={`${edit}/${table ?? ''}`}
          workspace={workspace}
          datasetId={edit === 'new' ? null : edit}
          table={edit === 'new' ? table : null}
          workspaceId={workspaceId}
          onClose={closeEditor}
          onSaved={onSaved}
        />
      )}
    </>
  );
}
