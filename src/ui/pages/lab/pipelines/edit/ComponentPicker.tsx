import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  SearchBox,
  Spinner,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import type { HalLike } from '../../../../../domain/hal';
import { COMPONENT_TABS_TEXT } from '../../../../../domain/pipelineForm';
import type { EditorComponent } from '../../../../../machines/pipelineForm/pipelineForm.machine';
import { usePickerPage, type PickerPage, type PickerRow } from '../../../../data/lab';

const useStyles = makeStyles({
  surface: { maxWidth: '640px', width: '100%' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minHeight: '240px', marginTop: tokens.spacingVerticalS },
  pager: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginTop: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
  explain: { display: 'block', color: tokens.colorNeutralForeground2, marginTop: 0, marginBottom: tokens.spacingVerticalS },
});

type Tab = 'existing' | 'new';
type Row = PickerRow;
type Query = { status: 'loading' } | { status: 'ready'; page: PickerPage<Row> } | { status: 'failed'; message: string };

/** 'Add component' (spec 001 §2): Existing and New tabs, paged, searched by name; Add adds the ticked ones. */
export function ComponentPicker({ open, workspace, present, onAdd, onClose }: { open: boolean; workspace: HalLike; present: readonly string[]; onAdd: (components: EditorComponent[]) => void; onClose: () => void }) {
  const styles = useStyles();
  const [tab, setTab] = useState<Tab>('new');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [chosen, setChosen] = useState<ReadonlyMap<string, EditorComponent>>(new Map());

  const read = usePickerPage(open, workspace, tab, page, search);
  const query: Query = read.state.status === 'ready' ? { status: 'ready', page: read.state.data } : read.state.status === 'failed' ? { status: 'failed', message: read.state.message } : { status: 'loading' };

  const toggle = (row: Row, on: boolean) =>
    setChosen((previous) => {
      const next = new Map(previous);
      if (on) next.set(row.key, row.component);
      else next.delete(row.key);
      return next;
    });
  const close = () => {
    setChosen(new Map());
    onClose();
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface} aria-label="Add component">
        <DialogBody>
          <DialogTitle>Add component</DialogTitle>
          <DialogContent>
            <TabList selectedValue={tab} onTabSelect={(_, data) => { setTab(data.value as Tab); setPage(0); }}>
              <Tab value="existing">Existing</Tab>
              <Tab value="new">New</Tab>
            </TabList>
            <Text as="p" size={200} className={styles.explain}>
              {COMPONENT_TABS_TEXT[tab]}
            </Text>
            <SearchBox placeholder="Search..." aria-label="Search components" value={search} onChange={(_, data) => { setSearch(data.value); setPage(0); }} />
            <div className={styles.list} role="list">
              {query.status === 'loading' && <Spinner size="small" label="Loading" />}
              {query.status === 'failed' && (
                <MessageBar intent="error"><MessageBarBody>{query.message}</MessageBarBody></MessageBar>
              )}
              {query.status === 'ready' && query.page.items.length === 0 && <Text className={styles.muted}>Nothing found</Text>}
              {query.status === 'ready' &&
                query.page.items.map((row) => {
                  const already = present.includes(row.component.name);
                  return (
                    <div role="listitem" key={row.key}>
                      <Checkbox
                        disabled={already}
                        checked={already || chosen.has(row.key)}
                        onChange={(_, data) => toggle(row, data.checked === true)}
                        label={<span>{row.label} <Text size={200} className={styles.muted}>{row.detail}</Text></span>}
                      />
                    </div>
                  );
                })}
            </div>
            {query.status === 'ready' && (
              <nav className={styles.pager} aria-label="Pages">
                <Button size="small" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>Previous</Button>
                <Text size={200}>Page {query.page.totalPages === 0 ? 0 : page + 1} of {query.page.totalPages}</Text>
                <Button size="small" disabled={page + 1 >= query.page.totalPages} onClick={() => setPage((p) => p + 1)}>Next</Button>
              </nav>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={close}>Cancel</Button>
            <Button appearance="primary" disabled={chosen.size === 0} onClick={() => { onAdd([...chosen.values()]); close(); }}>
              Add
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
