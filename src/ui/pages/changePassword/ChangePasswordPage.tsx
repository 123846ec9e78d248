import { Body1, Button, makeStyles, MessageBar, MessageBarBody, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowClockwiseRegular, ErrorCircleRegular, MailCheckmarkRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { accountMachines } from '../../machineAreas/account';
import { useSession } from '../../shell/session';

const useStyles = makeStyles({
  card: {
    maxWidth: '560px',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalXL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    boxSizing: 'border-box',
  },
  headline: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  heading: { margin: 0 },
  success: { color: tokens.colorPaletteGreenForeground1, fontSize: '28px' },
  paragraph: { margin: 0 },
  muted: { margin: 0, color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
});

/** /change-password (spec 000 §2.8): the reset request goes out on load; the provider's text or the failure shows. */
export default function ChangePasswordPage() {
  const styles = useStyles();
  const machines = useMachines(accountMachines);
  const { profile } = useSession();
  const request = useActorRef(machines.changePassword, { input: { email: profile.email } });
  const requesting = useSelector(request, (s) => s.matches('requesting'));
  const text = useSelector(request, (s) => s.context.text);
  const error = useSelector(request, (s) => s.context.error);

  return (
    <section data-view="Change Password" aria-label="Change Password">
      <PageHeader title="Change Password" />
      <div className={styles.card} aria-live="polite">
        {requesting && <Spinner size="small" label="Sending a password reset email" />}
        {text !== null && (
          <>
            <div className={styles.headline}>
              <MailCheckmarkRegular className={styles.success} aria-hidden />
              <Subtitle2 as="h2" className={styles.heading}>Check your inbox</Subtitle2>
            </div>
            <Body1 as="p" role="status" className={styles.paragraph}>
              {text}
            </Body1>
            <Body1 as="p" className={styles.muted}>
              Sent to {profile.email}
            </Body1>
          </>
        )}
        {error !== null && (
          <>
            <MessageBar intent="error" role="alert" icon={<ErrorCircleRegular />}>
              <MessageBarBody>{error}</MessageBarBody>
            </MessageBar>
            <Button icon={<ArrowClockwiseRegular />} onClick={() => request.send({ type: 'user.retry' })}>
              Try again
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
