import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkRegular, CopyRegular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { MESSAGES } from '../../../domain/errors';
import { selectCreateEnabled } from '../../../machines/apiKeys/apiKeys.machine';
import { useRuntime } from '../../runtime';
import type { ApiKeysActor } from './apiKeysActor';
import { tokenRequestExample } from './tokenRequestExample';

const useStyles = makeStyles({
  // Headings keep the type ramp's spacing, not the browser's default margins.
  heading: { margin: 0 },
  surface: { maxWidth: 'min(640px, calc(100vw - 32px))', boxSizing: 'border-box' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  secretRow: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-start' },
  grow: { flexGrow: 1, minWidth: 0 },
  code: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase300,
    // Long ids and secrets wrap rather than push the dialog wider than a phone.
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The creation flow of spec 000 §2.9: name the draft, Create, then the secret shown once. */
export function NewKeyDialog({ actor }: { actor: ApiKeysActor }) {
  const styles = useStyles();
  const open = useSelector(actor, (s) => s.matches('naming') || s.matches('creating') || s.matches('issued'));
  const issued = useSelector(actor, (s) => s.matches('issued'));
  const creating = useSelector(actor, (s) => s.matches('creating'));

  const close = () => actor.send(issued ? { type: 'user.closeIssued' } : { type: 'user.cancel' });

  return (
    <Dialog
      open={open}
      // Nothing may be dismissed while the key is being saved; once issued only Done closes it.
      modalType={issued ? 'alert' : 'modal'}
      onOpenChange={(_, data) => {
        if (!data.open && !creating) close();
      }}
    >
      <DialogSurface className={styles.surface}>
        {issued ? <IssuedBody actor={actor} onDone={close} /> : <NamingBody actor={actor} onCancel={close} />}
      </DialogSurface>
    </Dialog>
  );
}

function NamingBody({ actor, onCancel }: { actor: ApiKeysActor; onCancel: () => void }) {
  const styles = useStyles();
  const name = useSelector(actor, (s) => s.context.name);
  const nameError = useSelector(actor, (s) => s.context.nameError);
  const error = useSelector(actor, (s) => s.context.error);
  const creating = useSelector(actor, (s) => s.matches('creating'));
  const createEnabled = useSelector(actor, selectCreateEnabled);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'user.create' });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogBody>
        <DialogTitle>New API token</DialogTitle>
        <DialogContent className={styles.content}>
          <Body1 className={styles.muted}>
            Give the key a name that says where it is used, such as the script or service that calls the API.
          </Body1>
          <Field label="Name" required validationMessage={nameError} validationState={nameError ? 'error' : 'none'}>
            <Input
              autoFocus
              value={name}
              disabled={creating}
              onChange={(_, data) => actor.send({ type: 'user.typeName', name: data.value })}
            />
          </Field>
          {error && (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{error}</MessageBarBody>
            </MessageBar>
          )}
        </DialogContent>
        <DialogActions>
          <Button appearance="secondary" disabled={creating} onClick={onCancel}>
            Cancel
          </Button>
          <Button appearance="primary" type="submit" disabled={!createEnabled} icon={creating ? <Spinner size="tiny" /> : null}>
            Create
          </Button>
        </DialogActions>
      </DialogBody>
    </form>
  );
}

function IssuedBody({ actor, onDone }: { actor: ApiKeysActor; onDone: () => void }) {
  const styles = useStyles();
  const { config } = useRuntime();
  const secret = useSelector(actor, (s) => s.context.secret ?? '');
  const error = useSelector(actor, (s) => s.context.error);
  const copied = useSelector(actor, (s) => s.matches({ issued: 'copied' }));
  const copying = useSelector(actor, (s) => s.matches({ issued: 'copying' }));
  // The key just issued is the last one the machine added to the list.
  const issuedKey = useSelector(actor, (s) => s.context.keys.at(-1));
  const clientId = issuedKey?.clientId ?? '';

  return (
    <DialogBody>
      <DialogTitle>API key created{issuedKey?.name ? `: ${issuedKey.name}` : ''}</DialogTitle>
      <DialogContent className={styles.content}>
        <MessageBar intent="warning">
          <MessageBarBody>{MESSAGES.secretNotShownAgain}</MessageBarBody>
        </MessageBar>
        <Field label="Client ID">
          <Input readOnly value={clientId} input={{ className: styles.mono }} />
        </Field>
        <Field label="Client secret">
          <div className={styles.secretRow}>
            <Input className={styles.grow} readOnly value={secret} input={{ className: styles.mono }} aria-label="Client secret" />
            <Button
              icon={copied ? <CheckmarkRegular /> : <CopyRegular />}
              disabled={copying || secret === ''}
              aria-label="Copy client secret"
              onClick={() => actor.send({ type: 'user.copy' })}
            >
              Copy
            </Button>
          </div>
        </Field>
        {error && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{error}</MessageBarBody>
          </MessageBar>
        )}
        <Subtitle2 as="h3" className={styles.heading}>Get an access token</Subtitle2>
        <pre className={styles.code} aria-label="Access token request">
          {tokenRequestExample({ domain: config.auth.domain, audience: config.auth.audience, clientId, clientSecret: secret })}
        </pre>
      </DialogContent>
      <DialogActions>
        {/* Still there, and disabled: a key is created once (spec 000 §4). */}
        <Button appearance="secondary" disabled>
          Create
        </Button>
        <Button appearance="primary" onClick={onDone}>
          Done
        </Button>
      </DialogActions>
    </DialogBody>
  );
}
