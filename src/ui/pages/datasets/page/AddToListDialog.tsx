import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  SearchBox,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { BookmarkRegular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { hasLink, type HalLike } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Channel } from '../../../../domain/resources';
import { useListsForDataset } from '../../../data/datasets';
import { ActionLabel, named } from './ActionLabel';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  lists: { display: 'flex', flexDirection: 'column', maxHeight: '280px', overflowY: 'auto', margin: 0, padding: 0, listStyle: 'none' },
  newList: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end' },
  grow: { flexGrow: 1 },
  muted: { color: tokens.colorNeutralForeground3 },
});

type Lists = { readonly status: 'loading' } | { readonly status: 'ready'; readonly lists: readonly Channel[] } | { readonly status: 'failed'; readonly message: string };

/** 'Add to list': the caller's lists with 'update channel', searchable, each a toggle; and a new list. */
export function AddToListDialog({ workspace, datasetId, disabled }: { workspace: HalLike; datasetId: string; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(_, data) => setOpen(data.open)}>
      <DialogTrigger disableButtonEnhancement>
        <Button icon={<BookmarkRegular />} disabled={disabled} {...named('Save')}>
          <ActionLabel>Save</ActionLabel>
        </Button>
      </DialogTrigger>
      <DialogSurface aria-label="Add to list">{open && <ListsBody workspace={workspace} datasetId={datasetId} />}</DialogSurface>
    </Dialog>
  );
}

function ListsBody({ workspace, datasetId }: { workspace: HalLike; datasetId: string }) {
  const styles = useStyles();
  const query = useListsForDataset(workspace, datasetId);
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  // Lists that could not be read show why instead; a change that failed shows why below the lists.
  const lists: Lists = query.data !== undefined ? { status: 'ready', lists: query.data } : query.state.status === 'failed' ? { status: 'failed', message: query.state.message } : { status: 'loading' };
  const error = query.data !== undefined && query.state.status === 'failed' ? query.state.message : null;

  const shown = useMemo(() => {
    if (lists.status !== 'ready') return [];
    const term = search.trim().toLowerCase();
    // Only lists the caller may change are offered (spec 002 'Add to list').
    return lists.lists.filter((list) => hasLink(list, REL.updateChannel) && (term === '' || list.name.toLowerCase().includes(term)));
  }, [lists, search]);

  const toggle = (list: Channel, inList: boolean) => {
    setBusy(list.id);
    void query.toggle(list, inList).finally(() => setBusy(null));
  };

  const create = () => {
    setBusy('new');
    void query.create(name).then((created) => {
      if (created) setName('');
      setBusy(null);
    });
  };

  return (
    <DialogBody>
      <DialogTitle>Add to list</DialogTitle>
      <DialogContent className={styles.content}>
        <SearchBox placeholder="Search lists" value={search} onChange={(_, data) => setSearch(data.value)} aria-label="Search lists" />
        {lists.status === 'loading' && <Spinner size="small" label="Loading lists" />}
        {lists.status === 'failed' && (
          <MessageBar intent="error">
            <MessageBarBody>{lists.message}</MessageBarBody>
          </MessageBar>
        )}
        {lists.status === 'ready' &&
          (shown.length === 0 ? (
            <span className={styles.muted}>{search.trim() === '' ? 'You have no lists yet.' : 'No list matches.'}</span>
          ) : (
            <ul className={styles.lists} aria-label="Lists">
              {shown.map((list) => (
                <li key={list.id}>
                  <Checkbox label={list.name} checked={list.containsDataset === true} disabled={busy !== null} onChange={(_, data) => toggle(list, data.checked === true)} />
                </li>
              ))}
            </ul>
          ))}
        {hasLink(workspace, REL.createChannel) && (
          <form
            className={styles.newList}
            onSubmit={(event) => {
              event.preventDefault();
              if (name.trim() !== '') create();
            }}
          >
            <Field label="New list" className={styles.grow}>
              <Input value={name} onChange={(_, data) => setName(data.value)} maxLength={200} />
            </Field>
            <Button type="submit" disabled={busy !== null || name.trim() === ''}>
              Create and add
            </Button>
          </form>
        )}
        {error !== null && (
          <MessageBar intent="error">
            <MessageBarBody>{error}</MessageBarBody>
          </MessageBar>
        )}
      </DialogContent>
      <DialogActions>
        <DialogTrigger disableButtonEnhancement>
          <Button>Done</Button>
        </DialogTrigger>
      </DialogActions>
    </DialogBody>
  );
}
