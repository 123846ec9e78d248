import {
  Avatar,
  Badge,
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  mergeClasses,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownRegular, PersonAddRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { Navigate, useNavigate } from 'react-router-dom';
import { BREAKPOINTS } from '../../../domain/constants';
import { MEMBER_TEXT, memberRow } from '../../../domain/members';
import { canInvite, showMembers } from '../../../domain/permissions';
import type { Member, Workspace } from '../../../domain/resources';
import { pathTo } from '../../../domain/routes';
import { selectEmpty, selectError, selectFirstLoad, selectHasMore, selectLoadingMore, selectMoreError } from '../../../machines/members/members.machine';
import { EmptyState } from '../../components/EmptyState';
import { InAppLink } from '../../components/InAppLink';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { peopleMachines } from '../../machineAreas/people';
import { useSession } from '../../shell/session';
import { useCurrentWorkspace } from '../../shell/useWorkspace';

const SMALL = `@media (max-width: ${BREAKPOINTS.small - 1}px)`;

const useStyles = makeStyles({
  table: {
    tableLayout: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    overflow: 'hidden',
    // Below the small breakpoint the table is a plain list of rows: no header, no horizontal scroll.
    [SMALL]: { display: 'block' },
  },
  header: { [SMALL]: { display: 'none' } },
  body: { [SMALL]: { display: 'block' } },
  row: {
    [SMALL]: {
      display: 'flex',
      alignItems: 'center',
      gap: tokens.spacingHorizontalM,
      padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    },
  },
  cell: {
    paddingTop: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
    verticalAlign: 'middle',
    [SMALL]: { display: 'block', padding: 0, height: 'auto', minWidth: 0 },
  },
  personCell: { [SMALL]: { flexGrow: 1 } },
  person: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, minWidth: 0 },
  names: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  name: { overflowWrap: 'anywhere', fontWeight: tokens.fontWeightSemibold },
  // The handle has its own column on wide screens and sits under the name on small ones.
  handleUnderName: { display: 'none', color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere', [SMALL]: { display: 'block' } },
  handleCell: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere', [SMALL]: { display: 'none' } },
  roleCell: { width: '120px', [SMALL]: { width: 'auto', flexShrink: 0 } },
  more: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalS, marginTop: tokens.spacingVerticalL },
  muted: { color: tokens.colorNeutralForeground3 },
  manage: { display: 'block', marginTop: 0, marginBottom: tokens.spacingVerticalM, color: tokens.colorNeutralForeground3 },
});

/** /l/{workspaceId}/members (issue 20): the workspace's people, each an Admin or a Member. */
export default function MembersPage() {
  const workspace = useCurrentWorkspace();
  // Only a workspace offering its 'members' link has this page; elsewhere the landing decides.
  if (workspace === undefined || !showMembers(workspace)) return <Navigate to={pathTo('root')} replace />;
  return <Members key={workspace.id} workspace={workspace} />;
}

function Members({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(peopleMachines);
  const navigate = useNavigate();
  const { features } = useSession();
  const actor = useActorRef(machines.members, { input: { workspace } });
  const members = useSelector(actor, (s) => s.context.items);
  const firstLoad = useSelector(actor, selectFirstLoad);
  const empty = useSelector(actor, selectEmpty);
  const error = useSelector(actor, selectError);
  const hasMore = useSelector(actor, selectHasMore);
  const loadingMore = useSelector(actor, selectLoadingMore);
  const moreError = useSelector(actor, selectMoreError);

  const invite = canInvite(workspace, features) ? (
    <Button appearance="primary" icon={<PersonAddRegular />} onClick={() => void navigate(pathTo('invitations', { workspaceId: workspace.id }))}>
      {MEMBER_TEXT.invite}
    </Button>
  ) : undefined;

  return (
    <section data-view="Members" aria-label={MEMBER_TEXT.title}>
      <PageHeader title={MEMBER_TEXT.title} actions={invite} />
      {invite !== undefined && (
        <Body1 as="p" className={styles.manage}>
          {MEMBER_TEXT.manage} <InAppLink to={pathTo('invitations', { workspaceId: workspace.id })}>{MEMBER_TEXT.manageLink}</InAppLink>
        </Body1>
      )}
      {firstLoad && <Spinner label={MEMBER_TEXT.loading} />}
      {error !== null && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={() => actor.send({ type: 'user.retry' })}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {empty && <EmptyState><Body1>{MEMBER_TEXT.empty}</Body1></EmptyState>}
      {members.length > 0 && (
        <Table className={styles.table} aria-label="Workspace members">
          <TableHeader className={styles.header}>
            <TableRow>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Handle</TableHeaderCell>
              <TableHeaderCell className={styles.roleCell}>Role</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody className={styles.body}>
            {members.map((member) => (
              <MemberTableRow key={member.id} member={member} />
            ))}
          </TableBody>
        </Table>
      )}
      {(hasMore || moreError !== null) && (
        <div className={styles.more}>
          {moreError !== null && <Body1 className={styles.muted} role="alert">{moreError}</Body1>}
          {hasMore && (
            <Button icon={loadingMore ? <Spinner size="tiny" /> : <ArrowDownRegular />} disabled={loadingMore} onClick={() => actor.send({ type: 'user.loadMore' })}>
              Load More
            </Button>
          )}
        </div>
      )}
    </section>
  );
}

function MemberTableRow({ member }: { member: Member }) {
  const styles = useStyles();
  const row = memberRow(member);
  return (
    <TableRow className={styles.row} aria-label={row.name}>
      <TableCell className={mergeClasses(styles.cell, styles.personCell)}>
        <div className={styles.person}>
          <Avatar name={row.name} color="colorful" size={32} aria-hidden />
          <div className={styles.names}>
            <Body1 className={styles.name}>{row.name}</Body1>
            <Caption1 className={styles.handleUnderName}>{row.handle}</Caption1>
          </div>
        </div>
      </TableCell>
      <TableCell className={mergeClasses(styles.cell, styles.handleCell)}>{row.handle}</TableCell>
      <TableCell className={mergeClasses(styles.cell, styles.roleCell)}>
        <Badge appearance={row.badge === 'Admin' ? 'filled' : 'tint'} color={row.badge === 'Admin' ? 'brand' : 'informative'}>
          {row.badge}
        </Badge>
      </TableCell>
    </TableRow>
  );
}
