import {
  Body1Strong,
  Button,
  Caption1,
  Card,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarBody,
  Spinner,
  Tab,
  TabList,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import {
  ArrowClockwiseRegular,
  ChevronDownRegular,
  ChevronUpRegular,
  DeleteRegular,
  EditRegular,
  EyeOffRegular,
  EyeRegular,
  MoreHorizontalRegular,
  PlayRegular,
  ShieldCheckmarkRegular,
  StopRegular,
  TableRegular,
} from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatJobDate } from '../../../../../domain/constants';
import { hasLink } from '../../../../../domain/hal';
import { jobReason } from '../../../../../domain/jobReason';
import { LOADED_DATA_TEXTS, runTablesPath } from '../../../../../domain/loadedData';
import { REL } from '../../../../../domain/relations';
import { pathTo } from '../../../../../domain/routes';
import type { Job, Pipeline } from '../../../../../domain/resources';
import { latestJobOf, selectBusy, selectShowsStop } from '../../../../../machines/jobRun/jobRun.machine';
import { isWatching } from '../../../../../machines/watch/watch.machine';
import { useMachines } from '../../../../MachinesProvider';
import { pipelinesMachines } from '../../../../machineAreas/pipelines';
import { EnvironmentTab } from './EnvironmentTab';
import { HistoryTab } from './HistoryTab';
import { DeletePipelineDialog } from './DeletePipelineDialog';
import { ImpactTab } from './ImpactTab';
import { InAppLink } from '../../../../components/InAppLink';
import { JobStatusBadge } from '../../../../components/jobs/JobStatusBadge';
import { LogModal } from '../../../../components/jobs/LogModal';
import { SettingsTab } from './SettingsTab';
import { WatchModal } from './WatchModal';

export const DRAFT_TOOLTIP = 'Draft imports disabled';
export const INCOMPLETE_TOOLTIP = 'Import configuration incomplete';

const useStyles = makeStyles({
  card: { padding: tokens.spacingHorizontalM },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  title: { flexGrow: 1, minWidth: '10rem', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  tablesLink: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
  meta: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  body: { marginTop: tokens.spacingVerticalM, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

type TabName = 'history' | 'settings' | 'environment' | 'impact';

export function isDraft(pipeline: Pipeline): boolean {
  return pipeline.draft === true || pipeline.status === 'DRAFT';
}

/** One pipeline (spec 001 §2 "Pipeline row"); below 992 px Watch, Refresh and Start/Stop live in More. */
export function PipelineRow({
  pipeline: initial,
  workspaceId,
  compact,
  canModify,
  onDeleted,
}: {
  pipeline: Pipeline;
  workspaceId: string;
  compact: boolean;
  canModify: boolean;
  onDeleted: () => void;
}) {
  const styles = useStyles();
  const machines = useMachines(pipelinesMachines);
  const navigate = useNavigate();
  const run = useActorRef(machines.jobRun, { input: { pipeline: initial } });
  const watch = useActorRef(machines.watch, { input: { pipeline: initial } });
  const pipeline = useSelector(run, (s) => s.context.pipeline);
  const showsStop = useSelector(run, selectShowsStop);
  const busy = useSelector(run, selectBusy);
  const runError = useSelector(run, (s) => s.context.error);
  const runsEnded = useSelector(run, (s) => s.context.runsEnded);
  const watching = useSelector(watch, (s) => isWatching(s.context.pipeline));
  const watchBusy = useSelector(watch, (s) => s.matches('unsubscribing') || s.matches('refreshing'));
  const canWatch = useSelector(watch, (s) => hasLink(s.context.pipeline, REL.addSubscription));

  const [expanded, setExpanded] = useState(false);
  const [tab, setTab] = useState<TabName>('history');
  const [logJob, setLogJob] = useState<Job | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  // A job started here is worth seeing: open the History.
  useEffect(() => {
    if (showsStop) setExpanded(true);
  }, [showsStop]);

  const latest = latestJobOf(pipeline);
  // issue 38: a completed run leads to the tables it loaded
  const tablesOf = (job: Job) => runTablesPath(workspaceId, pipeline, job);
  const latestTables = runTablesPath(workspaceId, pipeline, latest);
  const draft = isDraft(pipeline);
  const canStart = hasLink(pipeline, REL.createJob) && !draft;
  const startTooltip = draft ? DRAFT_TOOLTIP : !hasLink(pipeline, REL.createJob) ? INCOMPLETE_TOOLTIP : 'Start job';
  const name = pipeline.name ?? '(unnamed)';
  const editPath = pipeline.id == null ? null : pathTo('pipeline', { workspaceId, pipelineId: pipeline.id });

  const startStop = showsStop ? (
    <Button icon={<StopRegular />} disabled={busy || !hasLink(pipeline, REL.withdrawJob)} onClick={() => run.send({ type: 'user.stop' })}>
      Stop job
    </Button>
  ) : (
    <Tooltip content={startTooltip} relationship="description">
      <Button appearance="primary" icon={busy ? <Spinner size="tiny" /> : <PlayRegular />} disabledFocusable={!canStart} disabled={busy} onClick={() => run.send({ type: 'user.start' })}>
        Start job
      </Button>
    </Tooltip>
  );
  const watchButton = watching ? (
    <Button appearance="subtle" icon={<EyeOffRegular />} disabled={watchBusy} onClick={() => watch.send({ type: 'user.unwatch' })}>
      Unwatch
    </Button>
  ) : (
    <Button appearance="subtle" icon={<EyeRegular />} disabled={watchBusy || !canWatch} onClick={() => watch.send({ type: 'user.watch' })}>
      Watch
    </Button>
  );
  const refreshButton = <Button appearance="subtle" icon={<ArrowClockwiseRegular />} aria-label="Refresh" title="Refresh" disabled={busy} onClick={() => run.send({ type: 'user.refresh' })} />;

  return (
    <Card className={styles.card} data-pipeline={name}>
      <div className={styles.head}>
        <div className={styles.title}>
          <Body1Strong>{name}</Body1Strong>
          <div className={styles.meta}>
            {latest !== null && <JobStatusBadge status={latest.status} />}
            {draft && <Caption1>DRAFT</Caption1>}
            {latest !== null && <Caption1>{`${formatJobDate(latest.created)} · ${jobReason(latest)}`}</Caption1>}
            {latestTables !== null && (
              <InAppLink to={latestTables} className={styles.tablesLink}>
                <TableRegular aria-hidden /> {LOADED_DATA_TEXTS.viewTables}
              </InAppLink>
            )}
            {latest === null && !draft && <Caption1>Never run</Caption1>}
            {pipeline.triggeredBy != null && pipeline.triggeredBy.length > 0 && <Caption1>{`After ${pipeline.triggeredBy.join(', ')}`}</Caption1>}
          </div>
        </div>
        <div className={styles.actions}>
          {!compact && watchButton}
          {!compact && refreshButton}
          {!compact && startStop}
          <Button appearance="subtle" icon={expanded ? <ChevronUpRegular /> : <ChevronDownRegular />} aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
            {expanded ? 'Collapse' : 'Expand'}
          </Button>
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <Button appearance="subtle" icon={<MoreHorizontalRegular />} aria-label="More" />
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {compact && (showsStop ? (
                  <MenuItem icon={<StopRegular />} disabled={busy || !hasLink(pipeline, REL.withdrawJob)} onClick={() => run.send({ type: 'user.stop' })}>
                    Stop job
                  </MenuItem>
                ) : (
                  <MenuItem icon={<PlayRegular />} disabled={busy || !canStart} onClick={() => run.send({ type: 'user.start' })}>
                    {canStart ? 'Start job' : `Start job (${startTooltip})`}
                  </MenuItem>
                ))}
                {compact && (
                  <MenuItem icon={<ArrowClockwiseRegular />} onClick={() => run.send({ type: 'user.refresh' })}>
                    Refresh
                  </MenuItem>
                )}
                {compact && (watching ? (
                  <MenuItem icon={<EyeOffRegular />} onClick={() => watch.send({ type: 'user.unwatch' })}>
                    Unwatch
                  </MenuItem>
                ) : (
                  <MenuItem icon={<EyeRegular />} disabled={!canWatch} onClick={() => watch.send({ type: 'user.watch' })}>
                    Watch
                  </MenuItem>
                ))}
                <MenuItem icon={<EditRegular />} disabled={editPath === null || !hasLink(pipeline, REL.updatePipeline)} onClick={() => editPath !== null && void navigate(editPath)}>
                  Edit
                </MenuItem>
                <MenuItem icon={<ShieldCheckmarkRegular />} disabled={busy || !hasLink(pipeline, REL.verifyPipeline)} onClick={() => run.send({ type: 'user.verify' })}>
                  Verify
                </MenuItem>
                {canModify && (
                  <MenuItem icon={<DeleteRegular />} disabled={!hasLink(pipeline, REL.deletePipeline)} onClick={() => setConfirmDelete(true)}>
                    Delete
                  </MenuItem>
                )}
              </MenuList>
            </MenuPopover>
          </Menu>
        </div>
      </div>
      {runError !== null && (
        <MessageBar intent="error">
          <MessageBarBody>{runError}</MessageBarBody>
        </MessageBar>
      )}
      {expanded && (
        <div className={styles.body}>
          <TabList selectedValue={tab} onTabSelect={(_, data) => setTab(data.value as TabName)}>
            <Tab value="history">History</Tab>
            <Tab value="settings">Settings</Tab>
            <Tab value="environment">Environment</Tab>
            {hasLink(pipeline, REL.lineage) && <Tab value="impact">Impact</Tab>}
          </TabList>
          {tab === 'history' && <HistoryTab pipeline={pipeline} reloadKey={runsEnded * 1_000 + (showsStop ? 1 : 0)} onOpenLog={setLogJob} tablesOf={tablesOf} />}
          {tab === 'settings' && <SettingsTab pipeline={pipeline} />}
          {tab === 'environment' && <EnvironmentTab pipeline={pipeline} />}
          {tab === 'impact' && <ImpactTab pipeline={pipeline} workspaceId={workspaceId} reloadKey={runsEnded} />}
        </div>
      )}
      <WatchModal actor={watch} />
      {logJob !== null && <LogModal job={logJob} onClose={() => setLogJob(null)} tablesOf={tablesOf} />}
      {confirmDelete && (
        <DeletePipelineDialog
          pipeline={pipeline}
          workspaceId={workspaceId}
          onCancel={() => setConfirmDelete(false)}
          onDeleted={() => {
            setConfirmDelete(false);
            onDeleted();
          }}
        />
      )}
    </Card>
  );
}
