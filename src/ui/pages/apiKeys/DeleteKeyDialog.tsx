import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import type { ApiKeysActor } from './apiKeysActor';

const useStyles = makeStyles({
  paragraph: { margin: 0 },
  danger: {
    backgroundColor: tokens.colorStatusDangerBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorStatusDangerBackground3Hover, color: tokens.colorNeutralForegroundOnBrand },
    ':hover:active': { backgroundColor: tokens.colorStatusDangerBackground3Pressed, color: tokens.colorNeutralForegroundOnBrand },
  },
});

/** The second step of the two-step delete (spec 000 §4): nothing is deleted until Delete is pressed here. */
export function DeleteKeyDialog({ actor }: { actor: ApiKeysActor }) {
  const styles = useStyles();
  const open = useSelector(actor, (s) => s.matches('confirmingDelete') || s.matches('deleting'));
  const deleting = useSelector(actor, (s) => s.matches('deleting'));
  const name = useSelector(actor, (s) => s.context.pendingDelete?.name ?? '');

  return (
    <Dialog
      open={open}
      modalType="alert"
      onOpenChange={(_, data) => {
        if (!data.open && !deleting) actor.send({ type: 'user.cancel' });
      }}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Delete API key</DialogTitle>
          <DialogContent>
            <Body1 as="p" className={styles.paragraph}>
              Delete the key {name === '' ? '' : <strong>{name}</strong>}? Scripts and services using it will no longer be able to get
              an access token. This cannot be undone.
            </Body1>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={deleting} onClick={() => actor.send({ type: 'user.cancel' })}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              className={deleting ? undefined : styles.danger}
              disabled={deleting}
              icon={deleting ? <Spinner size="tiny" /> : null}
              onClick={() => actor.send({ type: 'user.confirmDelete' })}
            >
              Delete
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
