import {
  Badge,
  Body1,
  Breadcrumb,
  BreadcrumbButton,
  BreadcrumbDivider,
  BreadcrumbItem,
  Button,
  Caption1,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Tab,
  TabList,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowClockwiseRegular, MoreHorizontalRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useNavigate } from 'react-router-dom';
import { LIBRARY_TEXT, listInfoText, pageTitle } from '../../../domain/library';
import { isWorkspaceAdmin } from '../../../domain/permissions';
import { REL } from '../../../domain/relations';
import { pathTo, type LibraryType } from '../../../domain/routes';
import type { Channel, Workspace } from '../../../domain/resources';
import { hasLink } from '../../../domain/hal';
import { canDelete, canRename, canToggleScope, selectConfirmOpen, selectDialogOpen } from '../../../machines/libraryLists/libraryLists.machine';
import { EmptyState } from '../../components/EmptyState';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { libraryMachines } from '../../machineAreas/library';
import { useRoute } from '../../shell/useRoute';
import { useCurrentWorkspace } from '../../shell/useWorkspace';
import { DatasetFeed } from '../../components/feed/DatasetFeed';
import { DateText } from '../../components/DateText';
import { DeleteListDialog, ListFormDialog } from './ListDialogs';

const useStyles = makeStyles({
  page: { maxWidth: '880px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  rows: { display: 'flex', flexDirection: 'column', margin: 0, padding: 0, listStyleType: 'none', borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  row: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  open: {
    flexGrow: 1,
    minWidth: 0,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalXXS,
    padding: 0,
    border: 'none',
    background: 'none',
    textAlign: 'left',
    cursor: 'pointer',
    color: tokens.colorNeutralForeground1,
    ':focus-visible': { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
  },
  name: { overflowWrap: 'anywhere' },
  facts: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: `0 ${tokens.spacingHorizontalS}`, color: tokens.colorNeutralForeground3 },
  description: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  info: { color: tokens.colorNeutralForeground2 },
});

const KIND = { lists: 'LIST', channels: 'SOURCE' } as const;

/** /l/{ws}/library/{lists|channels}[/{channelId}] (spec 002 Library). */
export default function LibraryPage() {
  const workspace = useCurrentWorkspace();
  const route = useRoute();
  if (workspace === undefined || route === undefined) return <Loading />;
  if (route.name !== 'libraryType' && route.name !== 'libraryChannel') return <Loading />;
  const channelId = route.name === 'libraryChannel' ? route.params.channelId : undefined;
  return <Library key={`${workspace.id}\n${route.params.type}`} workspace={workspace} type={route.params.type} channelId={channelId} />;
}

function Library({ workspace, type, channelId }: { workspace: Workspace; type: LibraryType; channelId: string | undefined }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const machines = useMachines(libraryMachines);
  const lists = useActorRef(machines.libraryLists, { input: { workspace, kind: KIND[type] } });
  const channels = useSelector(lists, (s) => s.context.channels);
  const loading = useSelector(lists, (s) => s.matches('loading'));
  const error = useSelector(lists, (s) => (s.matches('failed') ? s.context.error : null));
  const actionError = useSelector(lists, (s) => s.context.actionError);
  const dialog = useSelector(lists, (s) => (selectDialogOpen(s) ? s.context.dialog : null));
  const saving = useSelector(lists, (s) => s.matches('saving'));
  const confirmOpen = useSelector(lists, selectConfirmOpen);
  const deleting = useSelector(lists, (s) => s.matches('deleting'));
  const pending = useSelector(lists, (s) => s.context.pending);
  const admin = isWorkspaceAdmin(workspace);
  const title = pageTitle(workspace, 'library');
  const info = listInfoText(workspace);
  const base = pathTo('libraryType', { workspaceId: workspace.id, type });
  const channel = channelId === undefined ? undefined : channels.find((c) => c.id === channelId);

  return (
    <section data-view="Library" aria-label={title} className={styles.page}>
      <PageHeader title={title} />
      <TabList selectedValue={type} onTabSelect={(_, data) => void navigate(pathTo('libraryType', { workspaceId: workspace.id, type: data.value as LibraryType }))}>
        <Tab value="lists">Lists</Tab>
        <Tab value="channels">Channels</Tab>
      </TabList>

      {channelId !== undefined ? (
        <>
          <Breadcrumb aria-label="Library">
            <BreadcrumbItem>
              <BreadcrumbButton onClick={() => void navigate(base)}>{LIBRARY_TEXT.all}</BreadcrumbButton>
            </BreadcrumbItem>
            <BreadcrumbDivider />
            <BreadcrumbItem>
              <BreadcrumbButton current>{channel?.name ?? '…'}</BreadcrumbButton>
            </BreadcrumbItem>
          </Breadcrumb>
          {loading && <Spinner label="Loading" />}
          {!loading && channel === undefined && <EmptyState><Body1>{LIBRARY_TEXT.noDatasets}</Body1></EmptyState>}
          {channel !== undefined && (
            <DatasetFeed key={channel.id} workspaceId={workspace.id} source={{ kind: 'channel', channel }} empty={<Body1>{LIBRARY_TEXT.noDatasets}</Body1>} />
          )}
        </>
      ) : (
        <>
          <div className={styles.bar}>
            {type === 'lists' && info !== undefined ? <Body1 className={styles.info}>{info}</Body1> : <span />}
            <span>
              <Button appearance="subtle" icon={<ArrowClockwiseRegular />} onClick={() => lists.send({ type: 'user.reload' })} aria-label="Reload" />
              {type === 'lists' && hasLink(workspace, REL.createChannel) && (
                <Button appearance="primary" icon={<AddRegular />} onClick={() => lists.send({ type: 'user.create' })}>
                  New list
                </Button>
              )}
            </span>
          </div>
          {actionError !== null && (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{actionError}</MessageBarBody>
            </MessageBar>
          )}
          {error !== null && (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{error}</MessageBarBody>
              <MessageBarActions>
                <Button size="small" onClick={() => lists.send({ type: 'user.retry' })}>Retry</Button>
              </MessageBarActions>
            </MessageBar>
          )}
          {loading && channels.length === 0 && <Spinner label="Loading" />}
          {!loading && error === null && channels.length === 0 && <EmptyState><Body1>{type === 'lists' ? LIBRARY_TEXT.noLists : LIBRARY_TEXT.noChannels}</Body1></EmptyState>}
          {channels.length > 0 && (
            <ul className={styles.rows} aria-label={type === 'lists' ? 'Lists' : 'Channels'}>
              {channels.map((c) => (
                <Row
                  key={c.id}
                  channel={c}
                  admin={admin}
                  onOpen={() => void navigate(pathTo('libraryChannel', { workspaceId: workspace.id, type, channelId: c.id }))}
                  onRename={() => lists.send({ type: 'user.rename', channel: c })}
                  onDelete={() => lists.send({ type: 'user.delete', channel: c })}
                  onToggleScope={() => lists.send({ type: 'user.toggleScope', channel: c })}
                />
              ))}
            </ul>
          )}
        </>
      )}

      <ListFormDialog
        dialog={dialog}
        saving={saving}
        onName={(name) => lists.send({ type: 'user.changeName', name })}
        onDescription={(description) => lists.send({ type: 'user.changeDescription', description })}
        onSubmit={() => lists.send({ type: 'user.submit' })}
        onCancel={() => lists.send({ type: 'user.cancel' })}
      />
      <DeleteListDialog name={pending?.name ?? ''} open={confirmOpen} deleting={deleting} onConfirm={() => lists.send({ type: 'user.confirm' })} onCancel={() => lists.send({ type: 'user.cancel' })} />
    </section>
  );
}

function Row(props: { channel: Channel; admin: boolean; onOpen: () => void; onRename: () => void; onDelete: () => void; onToggleScope: () => void }) {
  const styles = useStyles();
  const { channel } = props;
  const isPublic = channel.scope !== 'PROFILE';
  return (
    <li className={styles.row}>
      <button type="button" className={styles.open} onClick={props.onOpen}>
        <Subtitle2 className={styles.name}>{channel.name}</Subtitle2>
        {channel.description && <Body1 className={styles.description}>{channel.description}</Body1>}
        <Caption1 className={styles.facts}>
          {channel.type === 'LIST' && (
            <Badge appearance="tint" color={isPublic ? 'brand' : 'informative'} size="small">
              {isPublic ? 'Public' : 'Private'}
            </Badge>
          )}
          <span>
            {channel.datasetCount ?? 0} {channel.datasetCount === 1 ? 'dataset' : 'datasets'}
          </span>
          {/* spec 002 §2: the creator's name is shown to admins only */}
          {props.admin && channel.creator?.name && <span>by {channel.creator.name}</span>}
          <DateText iso={channel.lastModified} />
        </Caption1>
      </button>
      {channel.canDelete === true && (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button appearance="subtle" icon={<MoreHorizontalRegular />} aria-label={`Actions for ${channel.name}`} />
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              <MenuItem disabled={!canRename(channel)} onClick={props.onRename}>Rename</MenuItem>
              <MenuItem disabled={!canToggleScope(channel)} onClick={props.onToggleScope}>
                {hasLink(channel, REL.addWorkspaceScope) ? 'Make public' : 'Make private'}
              </MenuItem>
              <MenuItem disabled={!canDelete(channel)} onClick={props.onDelete}>Delete</MenuItem>
            </MenuList>
          </MenuPopover>
        </Menu>
      )}
    </li>
  );
}
