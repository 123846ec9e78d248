import {
  Avatar,
  Button,
  Caption1,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Toast,
  Toaster,
  ToastTitle,
  tokens,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { SaveRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, type FormEvent } from 'react';
import { PROFILE_TOAST_MS } from '../../../domain/constants';
import { MESSAGES } from '../../../domain/errors';
import { selectSaving } from '../../../machines/profileForm/profileForm.machine';
import { PageHeader } from '../../components/PageHeader';
import { useMachines } from '../../MachinesProvider';
import { accountMachines } from '../../machineAreas/account';
import { useSession } from '../../shell/session';

const useStyles = makeStyles({
  card: {
    maxWidth: '560px',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    boxSizing: 'border-box',
  },
  identity: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, minWidth: 0 },
  identityText: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
});

/** A new address changes nothing until the link mailed to it is opened: say so while it waits. */
function pendingEmailHint(saved: { email: string; pendingEmail?: string | null | undefined }): string | null {
  if (!saved.pendingEmail) return null;
  return `We sent a link to ${saved.pendingEmail}: open it to confirm your new address. Until then your email stays ${saved.email}.`;
}

/** /p/profile (spec 000 §2.7): view 'Profile', heading 'Profile View'. */
export default function ProfilePage() {
  const styles = useStyles();
  const machines = useMachines(accountMachines);
  const { auth, profile } = useSession();
  const toasterId = useId('profile-toaster');
  const { dispatchToast, dismissAllToasts } = useToastController(toasterId);

  const form = useActorRef(machines.profileForm, { input: { profile } });
  useEffect(() => {
    const subscription = form.on('profile.saved', ({ profile: saved }) => {
      auth.send({ type: 'profile.updated', profile: saved });
      // A second save restarts the 6 seconds rather than stacking a second toast.
      dismissAllToasts();
      dispatchToast(
        <Toast>
          <ToastTitle>{MESSAGES.profileUpdated}</ToastTitle>
        </Toast>,
        { intent: 'success', timeout: PROFILE_TOAST_MS },
      );
    });
    return () => subscription.unsubscribe();
  }, [form, auth, dispatchToast, dismissAllToasts]);

  const name = useSelector(form, (s) => s.context.name);
  const email = useSelector(form, (s) => s.context.email);
  const emailEditable = useSelector(form, (s) => s.context.emailEditable);
  const errors = useSelector(form, (s) => s.context.errors);
  const saveError = useSelector(form, (s) => s.context.saveError);
  const saving = useSelector(form, selectSaving);
  const saved = useSelector(form, (s) => s.context.profile);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'user.save' });
  };

  return (
    <section data-view="Profile" aria-label="Profile">
      <PageHeader title="Profile View" />
      <Toaster toasterId={toasterId} />
      <form className={styles.card} onSubmit={onSubmit} noValidate aria-label="Edit profile">
        <div className={styles.identity}>
          <Avatar name={saved.name} size={48} color="colorful" aria-hidden />
          <div className={styles.identityText}>
            <Subtitle2 className={styles.ellipsis}>{saved.name}</Subtitle2>
            <Caption1 className={`${styles.ellipsis} ${styles.muted}`}>{saved.email}</Caption1>
          </div>
        </div>

        <Field label="Name" required validationMessage={errors.name ?? null} validationState={errors.name ? 'error' : 'none'}>
          <Input
            name="name"
            autoComplete="name"
            value={name}
            disabled={saving}
            onChange={(_, data) => form.send({ type: 'user.change', field: 'name', value: data.value })}
          />
        </Field>

        <Field
          label="Email"
          required={emailEditable}
          validationMessage={errors.email ?? null}
          validationState={errors.email ? 'error' : 'none'}
          hint={emailEditable ? pendingEmailHint(saved) : 'Your email address is managed by the account you sign in with.'}
        >
          <Input
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            readOnly={!emailEditable}
            disabled={saving}
            onChange={(_, data) => form.send({ type: 'user.change', field: 'email', value: data.value })}
          />
        </Field>

        {saveError && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{saveError}</MessageBarBody>
          </MessageBar>
        )}

        <div className={styles.actions}>
          <Button
            appearance="primary"
            type="submit"
            disabled={saving}
            icon={saving ? <Spinner size="tiny" /> : <SaveRegular />}
          >
            {saving ? 'Saving' : 'Save'}
          </Button>
        </div>
      </form>
    </section>
  );
}
