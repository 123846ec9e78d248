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
import { useCallback, useEffect, useMemo, useState } from 'react';
import { createList, listsForDataset, setInList } from '../../../../api/datasets';
import { hasLink, type HalLike } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Channel } from '../../../../domain/resources';
import { failureText } from '../../../../machines/failureText';
import { useRuntime } from '../../../runtime';
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
  const { client } = useRuntime();
  const [lists, setLists] = useState<Lists>({ status: 'loading' });
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    (signal?: AbortSignal) =>
      listsForDataset(client, workspace, datasetId, signal === undefined ? {} : { signal }).then(
        (found) => setLists({ status: 'ready', lists: found }),
        (failure: unknown) => {
          if (signal?.aborted !== true) setLists({ status: 'failed', message: failureText(failure) });
        },
      ),
    [client, workspace, datasetId],
  );
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const shown = useMemo(() => {
    if (lists.status !== 'ready') return [];
    const term = search.trim().toLowerCase();
    // Only lists the caller may change are offered (spec 002 'Add to list').
    return lists.lists.filter((list) => hasLink(list, REL.updateChannel) && (term === '' || list.name.toLowerCase().includes(term)));
  }, [lists, search]);

  const toggle = (list: Channel, inList: boolean) => {
    setBusy(list.id);
    setError(null);
    setInList(client, list, datasetId, inList)
      .then(() => setLists((current) => (current.status === 'ready' ? { ...current, lists: current.lists.map((l) => (l.id === list.id ? { ...l, containsDataset: inList } : l)) } : current)))
      .catch((failure: unknown) => setError(failureText(failure)))
      .finally(() => setBusy(null));
  };

  const create = () => {
    setBusy('new');
    setError(null);
    createList(client, workspace, name)
      .then((created) => setInList(client, created, datasetId, true))
      .then(() => {
        setName('');
        return load();
      })
      .catch((failure: unknown) => setError(failureText(failure)))
      .finally(() => setBusy(null));
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
