import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner } from '@fluentui/react-components';
import { DATA_STORE_TEXTS } from '../../../../domain/dataStores';

/** The delete confirmation of the list and the edit page: its machine decides when it is open and busy. */
export function DeleteStoreDialog(props: { open: boolean; deleting: boolean; name: string | undefined; onCancel: () => void; onConfirm: () => void }) {
  const { open, deleting, name, onCancel, onConfirm } = props;
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !deleting && onCancel()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{`Delete ${name ?? 'data store'}`}</DialogTitle>
          <DialogContent>{DATA_STORE_TEXTS.deleteConfirm}</DialogContent>
          <DialogActions>
            <Button disabled={deleting} onClick={onCancel}>
              Cancel
            </Button>
            <Button appearance="primary" disabled={deleting} icon={deleting ? <Spinner size="tiny" /> : null} onClick={onConfirm}>
              Delete
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
