import {
  Button,
  Caption1,
  Card,
  CardHeader,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { useCallback, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatJobDate } from '../../../../domain/constants';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Dataset } from '../../../../domain/resources';
import { pathTo } from '../../../../domain/routes';
import { useDeleteDataset, usePreviewRows } from '../../../data/datasets';
import { Visualisation } from '../../../components/visualisation/Visualisation';
import { useInView } from '../../../components/useInView';

export const DELETE_TITLE = 'Delete dataset';
export const DELETE_MESSAGE = 'Remove this dataset from the workspace. This action cannot be undone.';

const useStyles = makeStyles({
  card: { minWidth: 0, height: '100%' },
  title: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  meta: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  preview: { height: '180px', overflow: 'hidden', borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorNeutralBackground2 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, marginTop: 'auto' },
});

/** One dataset in the Lab's grid: what it is, where it lives, and a small preview of its data. */
export function DatasetCard({ dataset, workspaceId, onEdit, onDeleted }: { dataset: Dataset; workspaceId: string; onEdit: () => void; onDeleted: () => void }) {
  const styles = useStyles();
  const previewRef = useRef<HTMLDivElement>(null);
  const visible = useInView(previewRef);
  const [reload, setReload] = useState(0);
  const hasData = hasLink(dataset, REL.data);
  const preview = usePreviewRows(dataset, visible, reload);
  const previewData = preview.state.status === 'ready' ? preview.state.data : undefined;
  const rows = previewData !== undefined && 'rows' in previewData ? previewData.rows : undefined;
  const rowsError = previewData !== undefined && 'refused' in previewData ? previewData.refused : preview.state.status === 'failed' ? preview.state.message : null;
  const refresh = useCallback(() => setReload((n) => n + 1), []);

  const channel = (dataset._embedded as { source?: { name?: unknown } } | null | undefined)?.source?.name;
  const idOrAlias = dataset.alias ?? dataset.id;
  const datasetHref = useCallback((alias: string) => pathTo('dataset', { workspaceId, idOrAlias: alias }), [workspaceId]);

  return (
    <Card className={styles.card} data-dataset={dataset.id}>
      <CardHeader
        header={
          <Link to={pathTo('dataset', { workspaceId, idOrAlias })} className={styles.title}>
            {dataset.title}
          </Link>
        }
        description={
          <div className={styles.meta}>
            {dataset.alias && <Caption1>{dataset.alias}</Caption1>}
            {typeof channel === 'string' && <Caption1>{`Channel: ${channel}`}</Caption1>}
            {dataset.published && <Caption1>{`Published ${formatJobDate(dataset.published)}`}</Caption1>}
          </div>
        }
      />
      <div className={styles.preview} ref={previewRef} aria-label={`Preview of ${dataset.title}`}>
        {!hasData ? (
          <Text size={200}>No data</Text>
        ) : rowsError !== null ? (
          <MessageBar intent="warning">
            <MessageBarBody>{rowsError}</MessageBarBody>
          </MessageBar>
        ) : visible ? (
          <Visualisation dataset={dataset} rows={rows} mode="chart" compact datasetHref={datasetHref} onRefresh={refresh} />
        ) : (
          <Spinner size="tiny" />
        )}
      </div>
      <div className={styles.actions}>
        {hasLink(dataset, REL.editDataset) && (
          <Button icon={<EditRegular />} onClick={onEdit} aria-label={`Edit ${dataset.title}`}>
            Edit
          </Button>
        )}
        {hasLink(dataset, REL.deleteDataset) && <DeleteButton dataset={dataset} onDeleted={onDeleted} />}
      </div>
    </Card>
  );
}

function DeleteButton({ dataset, onDeleted }: { dataset: Dataset; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const deletion = useDeleteDataset();
  const busy = deletion.pending;
  const error = deletion.error;
  const confirm = () => {
    void deletion.run(dataset).then((outcome) => {
      if (!outcome.ok) return;
      setOpen(false);
      onDeleted();
    });
  };
  return (
    <>
      <Button icon={<DeleteRegular />} onClick={() => setOpen(true)} aria-label={`Delete ${dataset.title}`}>
        Delete
      </Button>
      <Dialog open={open} onOpenChange={(_, data) => !busy && setOpen(data.open)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{DELETE_TITLE}</DialogTitle>
            <DialogContent>
              {DELETE_MESSAGE}
              {error !== null && (
                <MessageBar intent="error">
                  <MessageBarBody>{error}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" disabled={busy} onClick={confirm}>
                {busy ? 'Deleting…' : 'Delete'}
              </Button>
              <Button disabled={busy} onClick={() => setOpen(false)}>
                Cancel
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
