import {
  Button,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  SearchBox,
  Spinner,
  SplitButton,
  Toaster,
  tokens,
  useId,
  type MenuButtonProps,
} from '@fluentui/react-components';
import { AddRegular, ArrowDownloadRegular, ArrowUploadRegular, DataHistogramRegular } from '@fluentui/react-icons';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isFeatureEnabled } from '../../../../../domain/features';
import { pathTo } from '../../../../../domain/routes';
import { embeddedList } from '../../../../../domain/hal';
import { snackbarMs } from '../../../../../domain/workspaceForm';
import { EmptyState } from '../../../../components/EmptyState';
import { PageHeader } from '../../../../components/PageHeader';
import { useSaveToast } from '../../../../components/useSaveToast';
import { usePipelinesPage } from '../../../../data/pipelines';
import { useSession } from '../../../../shell/session';
import { useWorkspace } from '../../../../shell/useWorkspace';
import { PipelineRow } from './PipelineRow';
import { RunLogFromLink } from './RunLogFromLink';
import { TriggerGraphPanel } from './TriggerGraphPanel';
import { useScreenSize } from '../../../../components/useScreenSize';

export const EMPTY_TEXT = 'No data sources yet. Feed me some data!';
const SEARCH_DELAY_MS = 300;

const useStyles = makeStyles({
  tools: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', flexWrap: 'wrap', marginBottom: tokens.spacingVerticalL },
  search: { flexGrow: 1, maxWidth: '420px', minWidth: '180px' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  pager: { display: 'flex', justifyContent: 'center', alignItems: 'center', gap: tokens.spacingHorizontalM, marginTop: tokens.spacingVerticalL },
  emptyIcon: { fontSize: '40px', color: tokens.colorBrandForeground1 },
});

/** /lab/{workspaceId}/pipelines, view 'Data Imports' (spec 001 §2). Admins only (RequireAdmin). */
export default function PipelinesPage() {
  const styles = useStyles();
  const workspace = useWorkspace();
  const { features } = useSession();
  const navigate = useNavigate();
  const size = useScreenSize();
  const canModify = isFeatureEnabled(features, 'MODIFY_PIPELINE');
  // 'Save & run' lands here saying the run has started
  const toasterId = useId('pipelines-toaster');
  useSaveToast(toasterId, snackbarMs(workspace));

  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [reload, setReload] = useState(0);
  // A node picked in the trigger graph: the list is searched for it, then its row scrolled to.
  const [picked, setPicked] = useState<string | null>(null);
  const showPipeline = useCallback((name: string) => {
    setSearch(name);
    setPicked(name);
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(search);
      setPage(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const listed = usePipelinesPage(workspace, page, query, reload);
  const result = listed.data?.result ?? null;
  /** the search the shown result answers (the picked pipeline scrolls only once its search is in) */
  const answered = listed.data?.search ?? null;
  const error = listed.state.status === 'failed' ? listed.state.message : null;

  useEffect(() => {
    if (picked === null || answered !== picked) return;
    setPicked(null);
    const row = document.querySelector(`[data-pipeline="${CSS.escape(picked)}"]`);
    row?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [picked, answered, result]);

  const workspaceId = workspace.id;
  const newPipeline = () => void navigate(pathTo('newPipeline', { workspaceId }));
  // Spec 001 §2: adding from the list opens the plugin catalogue filtered to extractors.
  const importSource = () => void navigate(pathTo('dataplugins', { workspaceId }, { type: 'EXTRACTOR' }));
  // issue 39: a workspace's own files, for tap-files, are listed and uploaded on Data Sources
  const uploadFiles = () => void navigate(pathTo('datasources', { workspaceId }));

  const addButton = canModify && (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        {(triggerProps) => (
          <SplitButton appearance="primary" icon={<AddRegular />} menuButton={triggerProps as MenuButtonProps} primaryActionButton={{ onClick: newPipeline }}>
            Add
          </SplitButton>
        )}
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem icon={<DataHistogramRegular />} onClick={newPipeline}>
            Pipeline
          </MenuItem>
          <MenuItem icon={<ArrowDownloadRegular />} onClick={importSource}>
            Import
          </MenuItem>
          <MenuItem icon={<ArrowUploadRegular />} onClick={uploadFiles}>
            Upload files
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );

  const pipelines = result === null ? null : embeddedList(result, 'pipelines');
  const totalPages = result?.page?.totalPages ?? 1;

  return (
    <>
      <Toaster toasterId={toasterId} />
      <PageHeader title="Data Imports" actions={addButton} />
      <div className={styles.tools}>
        <SearchBox className={styles.search} placeholder="Search pipelines..." aria-label="Search pipelines" value={search} onChange={(_, data) => setSearch(data.value)} />
      </div>
      <RunLogFromLink workspaceId={workspaceId} />
      <TriggerGraphPanel workspace={workspace} reload={reload} compact={size !== 'large'} onSelect={showPipeline} />
      {error !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => setReload(reload + 1)}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {pipelines === null ? (
        error === null && <Spinner label="Loading pipelines" />
      ) : pipelines.length === 0 ? (
        <EmptyState>
          <DataHistogramRegular className={styles.emptyIcon} />
          {query.trim() === '' ? EMPTY_TEXT : `No pipelines match '${query.trim()}'.`}
        </EmptyState>
      ) : (
        <div className={styles.list}>
          {pipelines.map((pipeline) => (
            <PipelineRow
              key={`${pipeline.id ?? pipeline.name ?? ''}:${String(reload)}`}
              pipeline={pipeline}
              workspaceId={workspaceId}
              compact={size !== 'large'}
              canModify={canModify}
              onDeleted={() => setReload(reload + 1)}
            />
          ))}
        </div>
      )}
      {totalPages > 1 && (
        <nav className={styles.pager} aria-label="Pages">
          <Button disabled={page <= 0} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>{`Page ${String(page + 1)} of ${String(totalPages)}`}</span>
          <Button disabled={page + 1 >= totalPages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </nav>
      )}
    </>
  );
}
