import {
  Body1,
  Button,
  Caption1,
  Card,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Toaster,
  tokens,
  useId,
} from '@fluentui/react-components';
import { DeleteRegular, SaveRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, type FormEvent } from 'react';
import { storeSettings } from '../../../../../domain/dataStores';
import { hasLink } from '../../../../../domain/hal';
import { firstChartPath, LOADED_DATA_TEXTS } from '../../../../../domain/loadedData';
import { REL } from '../../../../../domain/relations';
import type { DataStore, StoreTable, Workspace } from '../../../../../domain/resources';
import { selectBusy, selectCanSave } from '../../../../../machines/dataStoreForm/dataStoreForm.machine';
import { Loading } from '../../../../components/Loading';
import { StoreBrowser } from '../../../../components/StoreBrowser';
import { PageHeader } from '../../../../components/PageHeader';
import { dataStoresMachines } from '../../../../machineAreas/dataStores';
import { storeBrowserMachines } from '../../../../machineAreas/storeBrowser';
import { useMachines } from '../../../../MachinesProvider';
import { useRoute } from '../../../../shell/useRoute';
import { useCurrentWorkspace } from '../../../../shell/useWorkspace';
import { SettingEditor } from '../../pipelines/edit/SettingEditor';
import { StoreStatus } from '../StoreStatus';
import { useSaveToast } from '../../../../components/useSaveToast';
import { DeleteStoreDialog } from '../DeleteStoreDialog';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '760px', minWidth: 0 },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL },
  status: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  url: { color: tokens.colorNeutralForeground3, fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  tables: { maxWidth: '760px', marginTop: tokens.spacingVerticalL, boxSizing: 'border-box' },
});

/** /lab/{id}/datastores/new and /lab/{id}/datastores/{datastoreId} (spec 001 §2 'Data stores', §5 'Data store form'). */
export default function DataStoreEditPage() {
  const route = useRoute();
  const workspace = useCurrentWorkspace();
  if (!workspace || (route?.name !== 'newDatastore' && route?.name !== 'datastore')) return null;
  const datastoreId = route.name === 'datastore' ? route.params.datastoreId : null;
  const query = route.query as { dataplugin?: string; validate?: string; table?: string };
  // A new key per store: saving /new moves to /{id}, a fresh form on the saved store.
  return (
    <DataStoreForm
      key={`${workspace.id}/${datastoreId ?? 'new'}`}
      workspaceId={workspace.id}
      workspace={workspace}
      datastoreId={datastoreId}
      dataPluginId={query.dataplugin ?? null}
      validate={query.validate === 'true'}
      table={query.table ?? null}
    />
  );
}

/** What the store holds (the store browser): tables, columns, rows, the run that loaded each, 20 rows of one. */
function StoreTablesCard({ store, workspace, table }: { store: DataStore; workspace: Workspace; table: string | null }) {
  const styles = useStyles();
  // ?table (a run's 'View tables') opens that table once the list is read
  const browser = useActorRef(useMachines(storeBrowserMachines).storeBrowser, { input: { owner: store, table } });
  return (
    <Card className={mergeClasses(styles.section, styles.tables)} role="group" aria-label="Tables">
      <Subtitle2>Tables</Subtitle2>
      <StoreBrowser browser={browser} workspaceId={workspace.id} {...(hasLink(workspace, REL.publishDataset) ? { chartPathOf: (t: StoreTable) => firstChartPath(workspace.id, t.name) } : {})} />
    </Card>
  );
}

function DataStoreForm({ table, ...input }: { workspaceId: string; workspace: Workspace; datastoreId: string | null; dataPluginId: string | null; validate: boolean; table: string | null }) {
  const styles = useStyles();
  const form = useActorRef(useMachines(dataStoresMachines).dataStoreForm, { input });
  const c = useSelector(form, (s) => s.context);
  const loading = useSelector(form, (s) => s.matches('loading'));
  const failed = useSelector(form, (s) => s.matches('failed'));
  const busy = useSelector(form, selectBusy);
  const confirmOpen = useSelector(form, (s) => s.matches('confirming') || s.matches('deleting'));
  const deleting = useSelector(form, (s) => s.matches('deleting'));

  const toasterId = useId('datastore-toaster');
  const toast = useSaveToast(toasterId);
  useEffect(() => {
    const subscription = form.on('datastore.saved', (event) => toast(event.message));
    return () => subscription.unsubscribe();
  }, [form, toast]);

  // The toaster stays mounted through loading: a toast handed over by the route arrives before the store.
  const toaster = <Toaster toasterId={toasterId} />;
  if (loading) {
    return (
      <>
        {toaster}
        <Loading />
      </>
    );
  }
  if (failed) {
    return (
      <>
        {toaster}
        <section data-view="Data Store" aria-label="Data store" className={styles.form}>
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{c.loadError}</MessageBarBody>
        </MessageBar>
        <div className={styles.actions}>
          <Button onClick={() => form.send({ type: 'user.close' })}>Close</Button>
          <Button appearance="primary" onClick={() => form.send({ type: 'user.retry' })}>
            Try again
          </Button>
        </div>
        </section>
      </>
    );
  }

  const store = c.store;
  // A store the caller may not change (the embedded store has nothing to change): what it is and
  // what it holds, with no form to fill and no Save that could never work (issue 38).
  if (store !== null && !hasLink(store, REL.updateDatastore)) {
    return (
      <>
        {toaster}
        <section data-view="Data Store" aria-label="Data store">
          <PageHeader title={store.name} />
          <div className={styles.form}>
            <Card className={styles.section} role="group" aria-label="About this store">
              <div className={styles.status} aria-label="Status">
                <StoreStatus store={store} />
                {store.jdbcUrl && <Caption1 className={styles.url}>{store.jdbcUrl}</Caption1>}
              </div>
              <Body1 className={styles.muted}>{store.managed === true ? LOADED_DATA_TEXTS.embeddedStore : LOADED_DATA_TEXTS.readOnlyStore}</Body1>
            </Card>
            <div className={styles.actions}>
              {hasLink(store, REL.deleteDatastore) && (
                <Button icon={<DeleteRegular />} disabled={busy} onClick={() => form.send({ type: 'user.delete' })}>
                  Delete
                </Button>
              )}
              <span className={styles.grow} />
              <Button onClick={() => form.send({ type: 'user.close' })}>Close</Button>
            </div>
          </div>
          {hasLink(store, REL.tables) && <StoreTablesCard store={store} workspace={input.workspace} table={table} />}
          <DeleteStoreDialog open={confirmOpen} deleting={deleting} name={store.name} onCancel={() => form.send({ type: 'user.cancel' })} onConfirm={() => form.send({ type: 'user.confirm' })} />
        </section>
      </>
    );
  }
  const editable = store === null ? hasLink(input.workspace, REL.newDatastore) : hasLink(store, REL.updateDatastore);
  const disabled = busy || !editable;
  const title = store === null ? 'New data store' : store.name;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'user.save' });
  };

  return (
    <>
      {toaster}
      <section data-view="Data Store" aria-label="Data store">
      <PageHeader title={title} />
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Data store form">
        {c.banner !== null && c.banner !== '' && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{c.banner}</MessageBarBody>
          </MessageBar>
        )}
        <Card className={styles.section}>
          <Field label="Name" required validationMessage={c.fieldErrors.name ?? null} validationState={c.fieldErrors.name ? 'error' : 'none'}>
            <Input name="name" value={c.name} disabled={disabled} onChange={(_, d) => form.send({ type: 'user.name', value: d.value })} />
          </Field>
          {store !== null && (
            <div className={styles.status} aria-label="Status">
              <StoreStatus store={store} />
              {store.jdbcUrl && <Caption1 className={styles.url}>{store.jdbcUrl}</Caption1>}
            </div>
          )}
        </Card>
        {c.plugin !== null && (
          <Card className={styles.section} role="group" aria-label="Settings">
            <Subtitle2>{c.plugin.label ?? c.plugin.name}</Subtitle2>
            {c.plugin.description && <Body1 className={styles.muted}>{c.plugin.description}</Body1>}
            {store?.managed === true ? (
              <Caption1 className={styles.muted}>The workspace's own embedded store has no settings to change.</Caption1>
            ) : (
              storeSettings(c.plugin.settings).map((setting) => (
                <SettingEditor
                  key={setting.name}
                  setting={setting}
                  value={Object.hasOwn(c.properties, setting.name) ? c.properties[setting.name] : undefined}
                  error={c.fieldErrors[`properties.${setting.name}`]}
                  disabled={disabled}
                  onChange={(value) => form.send({ type: 'user.setProperty', key: setting.name, value })}
                />
              ))
            )}
          </Card>
        )}
        <div className={styles.actions}>
          {store !== null && hasLink(store, REL.deleteDatastore) && (
            <Button icon={<DeleteRegular />} disabled={busy} onClick={() => form.send({ type: 'user.delete' })}>
              Delete
            </Button>
          )}
          <span className={styles.grow} />
          <Button onClick={() => form.send({ type: 'user.close' })}>Close</Button>
          <Button appearance="primary" type="submit" disabled={busy || !selectCanSave(c)} icon={busy ? <Spinner size="tiny" /> : <SaveRegular />}>
            {busy ? 'Saving' : 'Save'}
          </Button>
        </div>
      </form>
      {store !== null && hasLink(store, REL.tables) && <StoreTablesCard store={store} workspace={input.workspace} table={table} />}
      <DeleteStoreDialog
        open={confirmOpen}
        deleting={deleting}
        name={store?.name}
        onCancel={() => form.send({ type: 'user.cancel' })}
        onConfirm={() => form.send({ type: 'user.confirm' })}
      />
      </section>
    </>
  );
}
