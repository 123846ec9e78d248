import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Spinner,
  ToggleButton,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import {
  AlertOffRegular,
  AlertRegular,
  ArrowDownloadRegular,
  ChartMultipleRegular,
  DeleteRegular,
  EditRegular,
  MoreHorizontalRegular,
  StarFilled,
  StarRegular,
  TableRegular,
} from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { actionEnabled, canSaveToList, datasetActions, shareTargets, watchState, type DatasetAction } from '../../../../domain/datasetPage';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Dataset, Workspace } from '../../../../domain/resources';
import { pathTo } from '../../../../domain/routes';
import { selectBusy, selectIsLiked } from '../../../../machines/datasetPage/datasetPage.machine';
import { useSession } from '../../../shell/session';
import { WatchForDialog, type WatchChoice } from '../../../components/WatchForDialog';
import { ActionLabel, named } from './ActionLabel';
import { AddToListDialog } from './AddToListDialog';
import type { DatasetPageActor } from './datasetPageActor';
import { useExportDataset } from '../../../data/datasets';
import { ShareDialog } from './ShareDialog';

const useStyles = makeStyles({
  // The actions wrap among themselves; the menu stays at the end of the first line.
  bar: { display: 'flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalS },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    flexGrow: 1,
    minWidth: 0,
    // Fluent's 96 px minimum width makes six short labels wrap on a laptop screen.
    '& > .fui-Button': { minWidth: 'auto' },
    // On a phone the labels are hidden (ActionLabel): the icons stand alone, as icon buttons do.
    '@media (max-width: 767px)': {
      '& > .fui-Button': { paddingLeft: tokens.spacingHorizontalS, paddingRight: tokens.spacingHorizontalS },
      '& > .fui-Button > .fui-Button__icon': { marginRight: tokens.spacingHorizontalXXS },
    },
  },
});

export type ViewMode = 'chart' | 'table';

type Props = {
  actor: DatasetPageActor;
  dataset: Dataset;
  workspace: Workspace;
  shareUrl: string;
  mode: ViewMode;
  onModeChange: (mode: ViewMode) => void;
  onError: (message: string | null) => void;
};

/** The action bar (spec 002): DATASET_ACTIONS selects and orders; each action is enabled by its link. */
export function ActionBar({ actor, dataset, workspace, shareUrl, mode, onModeChange, onError }: Props) {
  const styles = useStyles();
  const { features } = useSession();
  const navigate = useNavigate();
  const liked = useSelector(actor, selectIsLiked);
  const busy = useSelector(actor, selectBusy);
  const exportRun = useExportDataset();
  const exporting = exportRun.pending;

  const render: Record<DatasetAction, () => ReactNode> = {
    star: () => (
      <ToggleButton
        key="star"
        checked={liked}
        aria-label={liked ? 'Unstar' : 'Star'}
        icon={liked ? <StarFilled /> : <StarRegular />}
        disabled={!actionEnabled('star', dataset) || busy}
        onClick={() => actor.send({ type: 'user.like' })}
      >
        {/* a string: Fluent treats a 0 child as no content */}
        {String(dataset.likeCount ?? 0)}
      </ToggleButton>
    ),
    share: () => <ShareDialog key="share" url={shareUrl} title={dataset.title} targets={shareTargets(features)} disabled={!actionEnabled('share', dataset)} />,
    watch: () =>
      watchState(dataset) === 'watching' ? (
        <Button key="watch" icon={<AlertOffRegular />} disabled={busy} onClick={() => actor.send({ type: 'user.unwatch' })} {...named('Unwatch')}>
          <ActionLabel>Unwatch</ActionLabel>
        </Button>
      ) : (
        <Button key="watch" icon={<AlertRegular />} disabled={!actionEnabled('watch', dataset) || busy} onClick={() => actor.send({ type: 'user.watch' })} {...named('Watch')}>
          <ActionLabel>Watch</ActionLabel>
        </Button>
      ),
    table: () => (
      <ToggleButton
        key="table"
        checked={mode === 'table'}
        icon={mode === 'table' ? <ChartMultipleRegular /> : <TableRegular />}
        disabled={!actionEnabled('table', dataset)}
        onClick={() => onModeChange(mode === 'table' ? 'chart' : 'table')}
        {...named(mode === 'table' ? 'Chart' : 'Table')}
      >
        <ActionLabel>{mode === 'table' ? 'Chart' : 'Table'}</ActionLabel>
      </ToggleButton>
    ),
    save: () => (
      <AddToListDialog key="save" workspace={workspace} datasetId={dataset.id} disabled={!actionEnabled('save', dataset) || !canSaveToList(features, workspace)} />
    ),
    export: () => (
      <Button
        key="export"
        icon={exporting ? <Spinner size="tiny" /> : <ArrowDownloadRegular />}
        disabled={!actionEnabled('export', dataset) || exporting}
        onClick={() => {
          onError(null);
          void exportRun.run(dataset).then((outcome) => outcome.ok || onError(outcome.error));
        }}
        {...named('Export')}
      >
        <ActionLabel>Export</ActionLabel>
      </Button>
    ),
  };

  const canEdit = hasLink(dataset, REL.editDataset);
  const canDelete = hasLink(dataset, REL.deleteDataset);
  return (
    <div className={styles.bar} role="toolbar" aria-label="Dataset actions">
      <div className={styles.actions}>{datasetActions(workspace).map((action) => render[action]())}</div>
      {(canEdit || canDelete) && (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Tooltip content="More actions" relationship="label">
              <Button appearance="subtle" icon={<MoreHorizontalRegular />} />
            </Tooltip>
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              <MenuItem icon={<EditRegular />} disabled={!canEdit} onClick={() => navigate(pathTo('labDatasets', { workspaceId: workspace.id }, { edit: dataset.id }))}>
                Edit
              </MenuItem>
              <MenuItem icon={<DeleteRegular />} disabled={!canDelete} onClick={() => actor.send({ type: 'user.delete' })}>
                Delete
              </MenuItem>
            </MenuList>
          </MenuPopover>
        </Menu>
      )}
      <WatchDialog actor={actor} />
      <DeleteDialog actor={actor} title={dataset.title} />
    </div>
  );
}

const WATCH_CHOICES: readonly [WatchChoice, WatchChoice] = [
  { value: 'ALERTS', label: 'Alerts', hint: "the dataset's alerts, when its data breaks a rule or its pipeline fails" },
  { value: 'ALL', label: 'All Activity', hint: 'alerts, comments, and every change to the dataset' },
];

/** 'Watch for...': Alerts or All Activity. */
function WatchDialog({ actor }: { actor: DatasetPageActor }) {
  const open = useSelector(actor, (s) => s.matches({ ready: { actions: 'choosingWatch' } }) || s.matches({ ready: { actions: 'subscribing' } }));
  const subscribing = useSelector(actor, (s) => s.matches({ ready: { actions: 'subscribing' } }));
  const error = useSelector(actor, (s) => (s.matches({ ready: { actions: 'choosingWatch' } }) ? s.context.error : null));
  return (
    <WatchForDialog
      open={open}
      saving={subscribing}
      error={error}
      choices={WATCH_CHOICES}
      onChoose={(subscription) => actor.send({ type: 'user.choose', subscription })}
      onCancel={() => actor.send({ type: 'user.cancel' })}
    />
  );
}

/** Delete asks first (spec 002 dataset menu). */
function DeleteDialog({ actor, title }: { actor: DatasetPageActor; title: string }) {
  const open = useSelector(actor, (s) => s.matches({ ready: { actions: 'confirmingDelete' } }) || s.matches({ ready: { actions: 'deleting' } }));
  const deleting = useSelector(actor, (s) => s.matches({ ready: { actions: 'deleting' } }));
  const error = useSelector(actor, (s) => (s.matches({ ready: { actions: 'confirmingDelete' } }) ? s.context.error : null));
  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, data) => !data.open && !deleting && actor.send({ type: 'user.cancel' })}>
      <DialogSurface aria-label="Delete dataset">
        <DialogBody>
          <DialogTitle>Delete dataset?</DialogTitle>
          <DialogContent>
            {`Remove '${title}' from the workspace. This action cannot be undone.`}
            {error !== null && <p role="alert">{error}</p>}
          </DialogContent>
          <DialogActions>
            <Button disabled={deleting} onClick={() => actor.send({ type: 'user.cancel' })}>
              Cancel
            </Button>
            <Button appearance="primary" disabled={deleting} icon={deleting ? <Spinner size="tiny" /> : null} onClick={() => actor.send({ type: 'user.confirm' })}>
              Delete
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
