import {
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Toaster,
  tokens,
  useId,
} from '@fluentui/react-components';
import { AddRegular, DatabaseRegular, DeleteRegular, EditRegular, MoreHorizontalRegular, StarRegular, TableRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { hasLink } from '../../../../../domain/hal';
import { LOADED_DATA_TEXTS, storeTablesPath } from '../../../../../domain/loadedData';
import { REL } from '../../../../../domain/relations';
import { pathTo } from '../../../../../domain/routes';
import type { DataStore, Workspace } from '../../../../../domain/resources';
import { selectConfirmOpen } from '../../../../../machines/dataStoreList/dataStoreList.machine';
import { EmptyState } from '../../../../components/EmptyState';
import { InAppLink } from '../../../../components/InAppLink';
import { PageHeader } from '../../../../components/PageHeader';
import { useMachines } from '../../../../MachinesProvider';
import { dataStoresMachines } from '../../../../machineAreas/dataStores';
import { useWorkspace } from '../../../../shell/useWorkspace';
import { StoreStatus } from '../StoreStatus';
import { useSaveToast } from '../../../../components/useSaveToast';
import { DeleteStoreDialog } from '../DeleteStoreDialog';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // A Card lays its children out in a column; a store is one line: icon, details, menu.
  row: { display: 'flex', flexDirection: 'row', alignItems: 'center', gap: tokens.spacingHorizontalM, padding: tokens.spacingHorizontalM, cursor: 'pointer' },
  name: { fontWeight: tokens.fontWeightSemibold },
  // on a phone the button keeps its icon only: the card's name is the way in there too
  viewLabel: { '@media (max-width: 600px)': { display: 'none' } },
  viewButton: { flexShrink: 0, '@media (max-width: 600px)': { minWidth: 'auto' } },
  icon: { fontSize: '28px', color: tokens.colorBrandForeground1, flexShrink: 0 },
  main: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0, flexGrow: 1 },
  url: { color: tokens.colorNeutralForeground3, fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
  draft: { color: tokens.colorPaletteMarigoldForeground1, fontWeight: tokens.fontWeightSemibold },
});

/** /lab/{workspaceId}/datastores, view 'Data Stores' (spec 001 §2). Admins only (RequireAdmin). */
export default function DataStoresPage() {
  const workspace = useWorkspace();
  return <DataStoresList key={workspace.id} workspace={workspace} />;
}

function DataStoresList({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(dataStoresMachines);
  const navigate = useNavigate();
  const list = useActorRef(machines.dataStoreList, { input: { workspace } });
  const stores = useSelector(list, (s) => s.context.stores);
  const error = useSelector(list, (s) => s.context.error);
  const failed = useSelector(list, (s) => s.matches('failed'));
  const busy = useSelector(list, (s) => s.matches('makingDefault') || s.matches('refreshingWorkspace') || s.matches('deleting'));
  const confirmOpen = useSelector(list, selectConfirmOpen);
  const deleting = useSelector(list, (s) => s.matches('deleting'));
  const target = useSelector(list, (s) => s.context.target);

  const toasterId = useId('datastores-toaster');
  const toast = useSaveToast(toasterId);
  useEffect(() => {
    const subscription = list.on('datastore.deleted', (event) => toast(event.message));
    return () => subscription.unsubscribe();
  }, [list, toast]);

  const workspaceId = workspace.id;
  // Spec §2: Add opens the plugin catalogue on tab 0, filtered to loaders.
  const add = (
    <Button appearance="primary" icon={<AddRegular />} onClick={() => void navigate(pathTo('dataplugins', { workspaceId }, { tab: '0', type: 'LOADER' }))}>
      Add
    </Button>
  );

  return (
    <section data-view="Data Stores" aria-label="Data stores">
      <PageHeader title="Data Stores" actions={add} />
      <Toaster toasterId={toasterId} />
      {error !== null && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
          {failed && (
            <MessageBarActions>
              <Button onClick={() => list.send({ type: 'user.retry' })}>Retry</Button>
            </MessageBarActions>
          )}
        </MessageBar>
      )}
      {stores === null ? (
        !failed && <Spinner label="Loading data stores" />
      ) : stores.length === 0 ? (
        <EmptyState>No data stores yet.</EmptyState>
      ) : (
        <div className={styles.list}>
          {stores.map((store) => (
            <StoreRow
              key={store.id}
              store={store}
              busy={busy}
              path={pathTo('datastore', { workspaceId, datastoreId: store.id })}
              tablesPath={storeTablesPath(workspaceId, store)}
              onOpen={(path) => void navigate(path)}
              onMakeDefault={() => list.send({ type: 'user.makeDefault', store })}
              onDelete={() => list.send({ type: 'user.delete', store })}
            />
          ))}
        </div>
      )}
      <DeleteStoreDialog
        open={confirmOpen}
        deleting={deleting}
        name={target?.name}
        onCancel={() => list.send({ type: 'user.cancel' })}
        onConfirm={() => list.send({ type: 'user.confirm' })}
      />
    </section>
  );
}

/**
 * One store: the whole card opens the store's page, which lists its tables when the store offers
 * them (issue 38: the embedded store too, though it has nothing to edit); 'View tables' says so.
 */
function StoreRow({
  store,
  busy,
  path,
  tablesPath,
  onOpen,
  onMakeDefault,
  onDelete,
}: {
  store: DataStore;
  busy: boolean;
  path: string;
  tablesPath: string | null;
  onOpen: (path: string) => void;
  onMakeDefault: () => void;
  onDelete: () => void;
}) {
  const styles = useStyles();
  // a click on the card's own surface opens it; its link, buttons and menu do their own thing
  const openFromCard = (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('a, button, [role="menu"], [role="menuitem"]')) return;
    onOpen(path);
  };
  return (
    <Card className={styles.row} data-datastore={store.name} role="group" aria-label={store.name} onClick={openFromCard}>
      <DatabaseRegular className={styles.icon} />
      <div className={styles.main}>
        <Body1>
          <InAppLink to={path} className={styles.name}>
            {store.name}
          </InAppLink>{' '}
          {store.draft === true && <span className={styles.draft}>DRAFT</span>}
        </Body1>
        <StoreStatus store={store} />
        <Caption1 className={styles.url}>{store.jdbcUrl ?? (store.managed === true ? "The workspace's own embedded store" : store.dataPlugin ?? '')}</Caption1>
      </div>
      {tablesPath !== null && (
        <Button appearance="secondary" className={styles.viewButton} icon={<TableRegular />} aria-label={`${LOADED_DATA_TEXTS.viewTables} of ${store.name}`} onClick={() => onOpen(tablesPath)}>
          <span className={styles.viewLabel}>{LOADED_DATA_TEXTS.viewTables}</span>
        </Button>
      )}
      <Menu positioning="below-end">
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="subtle" icon={<MoreHorizontalRegular />} aria-label={`More for ${store.name}`} />
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {tablesPath !== null && (
              <MenuItem icon={<TableRegular />} onClick={() => onOpen(tablesPath)}>
                {LOADED_DATA_TEXTS.viewTables}
              </MenuItem>
            )}
            <MenuItem icon={<EditRegular />} disabled={!hasLink(store, REL.updateDatastore)} onClick={() => onOpen(path)}>
              Edit
            </MenuItem>
            <MenuItem icon={<StarRegular />} disabled={busy || !hasLink(store, REL.makeDefault)} onClick={onMakeDefault}>
              Make default
            </MenuItem>
            <MenuItem icon={<DeleteRegular />} disabled={busy || !hasLink(store, REL.deleteDatastore)} onClick={onDelete}>
              Delete
            </MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
    </Card>
  );
}
