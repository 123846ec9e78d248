import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, Spinner, Textarea } from '@fluentui/react-components';
import type { FormEvent } from 'react';
import { LIBRARY_TEXT } from '../../../domain/library';
import type { ListDialog } from '../../../machines/libraryLists/libraryLists.machine';

/** The list dialog (spec 002 Library): a required name and a description; create or rename. */
export function ListFormDialog(props: {
  dialog: ListDialog | null;
  saving: boolean;
  onName: (name: string) => void;
  onDescription: (description: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const { dialog, saving } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <Dialog open={dialog !== null} onOpenChange={(_, data) => !data.open && props.onCancel()}>
      <DialogSurface aria-label={dialog?.mode === 'rename' ? 'Rename list' : 'New list'}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{dialog?.mode === 'rename' ? 'Rename list' : 'New list'}</DialogTitle>
            <DialogContent>
              <Field label="Name" required validationMessage={dialog?.error ?? null} validationState={dialog?.error ? 'error' : 'none'}>
                <Input value={dialog?.name ?? ''} maxLength={200} onChange={(_, data) => props.onName(data.value)} disabled={saving} />
              </Field>
              <Field label="Description">
                <Textarea value={dialog?.description ?? ''} maxLength={2000} onChange={(_, data) => props.onDescription(data.value)} disabled={saving} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={props.onCancel} disabled={saving}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={saving} icon={saving ? <Spinner size="tiny" /> : null}>
                Save
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** Delete confirmation: 'Remove this list from the workspace...'. */
export function DeleteListDialog({ name, open, deleting, onConfirm, onCancel }: { name: string; open: boolean; deleting: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onCancel()}>
      <DialogSurface aria-label="Delete list">
        <DialogBody>
          <DialogTitle>Delete {name}?</DialogTitle>
          <DialogContent>{LIBRARY_TEXT.deleteList}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onCancel} disabled={deleting}>
              Cancel
            </Button>
            <Button appearance="primary" onClick={onConfirm} disabled={deleting} icon={deleting ? <Spinner size="tiny" /> : null}>
              Delete
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
