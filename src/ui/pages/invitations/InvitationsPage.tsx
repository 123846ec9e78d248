import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Toast,
  Toaster,
  ToastTitle,
  tokens,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { hasLink } from '../../../domain/hal';
import { formatInvitationDate, INVITATION_SENT_TOAST_MS, INVITATION_TEXT, invitationActions, invitationStatusText } from '../../../domain/invitations';
import { REL } from '../../../domain/relations';
import type { Invitation, Workspace } from '../../../domain/resources';
import { selectBusyId } from '../../../machines/invitations/invitations.machine';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { peopleMachines } from '../../machineAreas/people';
import { useWorkspace } from '../../shell/useWorkspace';

const useStyles = makeStyles({
  form: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'flex-start', flexWrap: 'wrap', marginBottom: tokens.spacingVerticalL },
  field: { flexGrow: 1, minWidth: '240px' },
  send: { marginTop: '26px' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: { display: 'flex', flexDirection: 'row', alignItems: 'center', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, padding: tokens.spacingHorizontalM },
  main: { display: 'flex', flexDirection: 'column', minWidth: 0, flexGrow: 1 },
  email: { overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/** /l/{workspaceId}/invitations (spec 002 §2 'Invitations', §4, §5, §8). */
export default function InvitationsPage() {
  const workspace = useWorkspace();
  return <Invitations key={workspace.id} workspace={workspace} />;
}

function Invitations({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(peopleMachines);
  const actor = useActorRef(machines.invitations, { input: { workspace } });
  const invitations = useSelector(actor, (s) => s.context.invitations);
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const sending = useSelector(actor, (s) => s.matches('sending'));
  const formError = useSelector(actor, (s) => s.context.formError);
  const busyId = useSelector(actor, selectBusyId);
  const [text, setText] = useState('');

  const toasterId = useId('invitations-toaster');
  const { dispatchToast } = useToastController(toasterId);
  useEffect(() => {
    const subscription = actor.on('invitations.toast', (event) => {
      if (event.message === INVITATION_TEXT.sent) setText('');
      dispatchToast(
        <Toast>
          <ToastTitle>{event.message}</ToastTitle>
        </Toast>,
        { intent: event.intent, timeout: INVITATION_SENT_TOAST_MS },
      );
    });
    return () => subscription.unsubscribe();
  }, [actor, dispatchToast]);

  const canCreate = hasLink(workspace, REL.createInvitation);
  const domains = (workspace.domains ?? []).filter((d) => d.trim() !== '');

  return (
    <section data-view="Invitations" aria-label="Invitations">
      <PageHeader title="Invitations" />
      <Toaster toasterId={toasterId} />
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'user.invite', text });
        }}
      >
        <Field
          className={styles.field}
          label="Email addresses"
          validationState={formError ? 'error' : 'none'}
          {...(formError ? { validationMessage: formError } : {})}
          hint={domains.length > 0 ? INVITATION_TEXT.domainsHint(domains) : 'Separate several addresses with commas.'}
        >
          <Input value={text} onChange={(_, data) => setText(data.value)} disabled={!canCreate || sending} placeholder="name@example.com, other@example.com" />
        </Field>
        <Button className={styles.send} appearance="primary" type="submit" disabled={!canCreate || sending || text.trim() === ''}>
          {sending ? <Spinner size="tiny" label="Sending" /> : 'Send invitations'}
        </Button>
      </form>
      {failed && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{INVITATION_TEXT.loadFailed}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => actor.send({ type: 'user.retry' })}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {invitations === null ? (
        !failed && <Spinner label="Loading invitations" />
      ) : invitations.length === 0 ? (
        <EmptyState>{INVITATION_TEXT.empty}</EmptyState>
      ) : (
        <div className={styles.list} role="list" aria-label="Invitations sent">
          {invitations.map((invitation) => (
            <InvitationRow key={invitation.id ?? invitation.email} invitation={invitation} busy={busyId !== null} send={(type) => actor.send({ type, invitation })} />
          ))}
        </div>
      )}
    </section>
  );
}

type RowAction = 'user.resend' | 'user.revoke' | 'user.delete' | 'user.toggleAdmin';

function InvitationRow({ invitation, busy, send }: { invitation: Invitation; busy: boolean; send: (type: RowAction) => void }) {
  const styles = useStyles();
  const actions = invitationActions(invitation);
  const status = invitationStatusText(invitation.status);
  return (
    <Card className={styles.row} role="listitem" aria-label={invitation.email}>
      <div className={styles.main}>
        <Body1 className={styles.email}>
          <strong>{invitation.email}</strong>
        </Body1>
        <Caption1>{formatInvitationDate(invitation.created)}</Caption1>
      </div>
      <Badge appearance="tint" color={status === 'Accepted' ? 'success' : status === 'Revoked' ? 'danger' : 'informative'}>
        {status}
      </Badge>
      <div className={styles.actions}>
        {actions.resend && <Button size="small" disabled={busy} onClick={() => send('user.resend')}>Resend</Button>}
        {actions.revoke && <Button size="small" disabled={busy} onClick={() => send('user.revoke')}>Revoke</Button>}
        {actions.delete && <Button size="small" disabled={busy} onClick={() => send('user.delete')}>Delete</Button>}
        {actions.adminToggle && <Button size="small" disabled={busy} onClick={() => send('user.toggleAdmin')}>{actions.adminToggle}</Button>}
      </div>
    </Card>
  );
}
