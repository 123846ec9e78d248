import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  DrawerBody,
  DrawerFooter,
  DrawerHeader,
  DrawerHeaderTitle,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  OverlayDrawer,
  Spinner,
  Subtitle2,
  Tab,
  TabList,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { builderSource } from '../../../../domain/chartBuilderColumns';
import { DATASET_FORM_TEXTS, jsonObjectError, rawDataRows, type DatasetFormField } from '../../../../domain/datasetEditor';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Dataset, StoreTable, Workspace } from '../../../../domain/resources';
import { pathTo } from '../../../../domain/routes';
import type { QueryMode } from '../../../../domain/queryBuilderEdit';
import { selectBusy, selectConfirmingDiscard, selectPreviewState, selectQueryMode } from '../../../../machines/datasetEditor/datasetEditor.machine';
import { datasetEditorMachines } from '../../../machineAreas/datasetEditor';
import { storeBrowserMachines } from '../../../machineAreas/storeBrowser';
import { useMachines } from '../../../MachinesProvider';
import { Visualisation } from '../../../components/visualisation/Visualisation';
import { StoreBrowser } from '../../../components/StoreBrowser';
import { ChartBuilder } from './ChartBuilder';
import { QueryBuilder } from './QueryBuilder';
import { SqlField, type SqlFieldHandle } from './SqlField';
import { PreviewTable } from '../../../components/PreviewTable';

const useStyles = makeStyles({
  drawer: { width: 'min(960px, 100vw)' },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, paddingBottom: tokens.spacingVerticalL },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  // the builder (or the store's tables) beside the SQL where the drawer is wide enough, above it on a phone
  querying: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 360px), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  // beside a long builder the SQL it writes stays in view while the picks scroll (not on a phone, where it would cover them)
  sticky: { '@media (min-width: 900px)': { position: 'sticky', top: 0, zIndex: 1, backgroundColor: tokens.colorNeutralBackground1 } },
  tables: { maxHeight: '360px', overflowY: 'auto', paddingRight: tokens.spacingHorizontalXS },
  // the builder beside its chart where the drawer is wide enough, the chart under it on a phone
  building: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 380px), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  chart: { minHeight: '240px', minWidth: 0, border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, padding: tokens.spacingHorizontalS },
  footer: { display: 'flex', gap: tokens.spacingHorizontalS },
});

const NO_CHANNEL = '';
const NO_TABLES: readonly StoreTable[] = [];

type Props = {
  readonly workspace: Workspace;
  readonly workspaceId: string;
  /** null: a new dataset */
  readonly datasetId: string | null;
  /** a new dataset started on this store table (?table, issue 38) */
  readonly table?: string | null;
  readonly onClose: () => void;
  readonly onSaved: (dataset: Dataset) => void;
};

/** The dataset editor drawer, opened by ?edit (issue 8): every rule is the machine's. */
export function DatasetEditor({ workspace, workspaceId, datasetId, table = null, onClose, onSaved }: Props) {
  const styles = useStyles();
  const editor = useActorRef(useMachines(datasetEditorMachines).datasetEditor, { input: { workspace, datasetId, table } });
  useEffect(() => {
    const saved = editor.on('dataset.saved', (event) => onSaved(event.dataset));
    // Cancel, Close and Escape ask the machine, which closes at once or after 'Discard changes'
    const closed = editor.on('dataset.closed', () => onClose());
    return () => {
      saved.unsubscribe();
      closed.unsubscribe();
    };
  }, [editor, onSaved, onClose]);
  const cancel = () => editor.send({ type: 'user.cancel' });
  const confirmingDiscard = useSelector(editor, selectConfirmingDiscard);

  // the store's tables, beside the SQL and behind its autocomplete
  const browser = useActorRef(useMachines(storeBrowserMachines).storeBrowser, { input: { owner: workspace } });
  const storeTables = useSelector(browser, (s) => s.context.tables);
  const tablesFailed = useSelector(browser, (s) => (s.matches('failed') ? s.context.error : null));
  const tablesOffered = hasLink(workspace, REL.tables);
  const sqlField = useRef<SqlFieldHandle>(null);

  const values = useSelector(editor, (s) => s.context.values);
  const errors = useSelector(editor, (s) => s.context.errors);
  const banner = useSelector(editor, (s) => s.context.banner);
  const loadError = useSelector(editor, (s) => s.context.loadError);
  const channels = useSelector(editor, (s) => s.context.channels);
  const preview = useSelector(editor, (s) => s.context.preview);
  const previewError = useSelector(editor, (s) => s.context.previewError);
  const previewState = useSelector(editor, selectPreviewState);
  const busy = useSelector(editor, selectBusy);
  const loading = useSelector(editor, (s) => s.matches('loading'));
  const queryMode = useSelector(editor, selectQueryMode);

  const change = (field: DatasetFormField) => (_: unknown, data: { value: string }) => editor.send({ type: 'user.change', field, value: data.value });
  // The JSON fields say what is wrong as they are typed; the other messages come with Save.
  const messageOf = (field: DatasetFormField): string | undefined => errors[field] ?? (field === 'visualisation' || field === 'metadata' ? (jsonObjectError(values[field]) ?? undefined) : undefined);
  const fieldProps = (field: DatasetFormField) => {
    const message = messageOf(field);
    return { validationMessage: message ?? null, validationState: message === undefined ? ('none' as const) : ('error' as const) };
  };
  const datasetHref = useCallback((alias: string) => pathTo('dataset', { workspaceId, idOrAlias: alias }), [workspaceId]);

  const chartRows = useMemo(() => (values.query.trim() !== '' ? preview?.rows : (rawDataRows(values.rawData) ?? [])), [values.query, values.rawData, preview]);
  // A new object only when what the chart draws changes, so typing elsewhere does not redraw it.
  const chartDataset = useMemo(
    () => ({ title: values.title, alias: values.alias, visualisation: values.visualisation, metadata: values.metadata, rawData: values.rawData }),
    [values.title, values.alias, values.visualisation, values.metadata, values.rawData],
  );
  const builderTexts = useMemo(() => ({ visualisation: values.visualisation, metadata: values.metadata }), [values.visualisation, values.metadata]);
  const source = useMemo(() => builderSource({ query: values.query, rawData: values.rawData }, preview), [values.query, values.rawData, preview]);
  const chartable = values.visualisation.trim() !== '' && jsonObjectError(values.visualisation) === null && jsonObjectError(values.metadata) === null;
  const title = datasetId === null ? 'New dataset' : 'Edit dataset';
  const channelName = channels.find((c) => c.id === values.channelId)?.name ?? '';

  return (
    <OverlayDrawer open position="end" className={styles.drawer} onOpenChange={(_, data) => !data.open && cancel()} aria-label={title}>
      <DrawerHeader>
        <DrawerHeaderTitle action={<Button appearance="subtle" aria-label="Close" icon={<DismissRegular />} onClick={cancel} />}>{title}</DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody>
        {loading ? (
          <Spinner label="Loading dataset" />
        ) : loadError !== null ? (
          <MessageBar intent="error">
            <MessageBarBody>{loadError}</MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => editor.send({ type: 'user.retry' })}>Retry</Button>
            </MessageBarActions>
          </MessageBar>
        ) : (
          <form
            className={styles.body}
            id="dataset-editor"
            onSubmit={(event) => {
              event.preventDefault();
              editor.send({ type: 'user.save' });
            }}
          >
            {banner !== null && (
              <MessageBar intent="error">
                <MessageBarBody>{banner}</MessageBarBody>
              </MessageBar>
            )}
            <Field label="Title" required {...fieldProps('title')}>
              <Input value={values.title} onChange={change('title')} disabled={busy} />
            </Field>
            <Field label="Alias" hint="Optional; may contain slashes, e.g. sales/revenue" {...fieldProps('alias')}>
              <Input value={values.alias} onChange={change('alias')} disabled={busy} />
            </Field>
            <Field label="Description" hint="Markdown" {...fieldProps('description')}>
              <Textarea value={values.description} onChange={change('description')} disabled={busy} rows={4} resize="vertical" />
            </Field>
            <Field label="Tags" hint="Comma or space separated" {...fieldProps('tags')}>
              <Input value={values.tags} onChange={change('tags')} disabled={busy} />
            </Field>
            <Field label="Channel" {...fieldProps('channelId')}>
              <Dropdown
                value={channelName === '' ? 'No channel' : channelName}
                selectedOptions={[values.channelId]}
                disabled={busy}
                onOptionSelect={(_, data) => editor.send({ type: 'user.change', field: 'channelId', value: data.optionValue ?? NO_CHANNEL })}
              >
                <Option value={NO_CHANNEL}>No channel</Option>
                {channels.map((channel) => (
                  <Option key={channel.id} value={channel.id}>
                    {channel.name}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            {/* the query picked in the builder or typed as SQL (issue 38): the SQL stays in view and editable either way */}
            <TabList size="small" aria-label="How the query is made" selectedValue={queryMode} onTabSelect={(_, data) => editor.send({ type: 'user.queryMode', mode: data.value as QueryMode })}>
              <Tab value="build">Build</Tab>
              <Tab value="sql">SQL</Tab>
            </TabList>
            <div className={styles.querying}>
              {queryMode === 'build' && (
                <QueryBuilder
                  sql={values.query}
                  tables={tablesOffered ? storeTables : NO_TABLES}
                  tablesProblem={!tablesOffered ? "Your account cannot read the store's tables, so the builder has none to offer: write the query as SQL." : tablesFailed}
                  onRetryTables={() => browser.send({ type: 'user.retry' })}
                  disabled={busy}
                  onEdit={(edit) => editor.send({ type: 'user.buildQuery', edit })}
                />
              )}
              <Field
                className={queryMode === 'build' ? styles.sticky : undefined}
                label="Query"
                hint={queryMode === 'build' ? 'Written by the builder, and yours to edit: SQL the builder cannot read is left as you type it' : "Read-only SQL against the workspace's data store; names complete as you type"}
                {...fieldProps('query')}
              >
                <SqlField value={values.query} onChange={(value) => editor.send({ type: 'user.change', field: 'query', value })} tables={storeTables ?? NO_TABLES} disabled={busy} handle={sqlField} />
              </Field>
              {queryMode === 'sql' && tablesOffered && (
                <section className={styles.section} aria-label="Tables in the store">
                  <Subtitle2>Tables in the store</Subtitle2>
                  <div className={styles.tables}>
                    <StoreBrowser browser={browser} workspaceId={workspaceId} onInsert={(name) => sqlField.current?.insert(name)} />
                  </div>
                </section>
              )}
            </div>
            <section className={styles.section} aria-label="Query result">
              <Subtitle2>Result</Subtitle2>
              {previewState === 'waiting' || previewState === 'previewing' ? (
                <Spinner size="tiny" label="Running the query" />
              ) : previewState === 'failed' && previewError !== null ? (
                <MessageBar intent="error">
                  <MessageBarBody>{previewError}</MessageBarBody>
                  <MessageBarActions>
                    <Button onClick={() => editor.send({ type: 'user.preview' })}>Run again</Button>
                  </MessageBarActions>
                </MessageBar>
              ) : preview !== null && values.query.trim() !== '' ? (
                <PreviewTable preview={preview} />
              ) : (
                <span>{queryMode === 'build' ? 'Pick a table to see its first rows.' : 'Type a query to see its first rows.'}</span>
              )}
            </section>
            {values.query.trim() === '' && (
              <Field label="Raw data" hint="Instead of a query: JSON rows, or a diagram's text" {...fieldProps('rawData')}>
                <Textarea textarea={{ className: styles.mono, spellCheck: false }} value={values.rawData} onChange={change('rawData')} disabled={busy} rows={4} resize="vertical" />
              </Field>
            )}
            <div className={styles.building}>
              <ChartBuilder texts={builderTexts} source={source} disabled={busy} onEdit={(edit) => editor.send({ type: 'user.build', edit })} />
              {/* beside a long builder the chart stays in view while its picks scroll (issue 38), as the SQL does beside the query builder */}
              <section className={mergeClasses(styles.section, styles.sticky)} aria-label="Chart preview">
                <Subtitle2>Chart preview</Subtitle2>
                <div className={styles.chart}>
                  {chartable ? (
                    <Visualisation dataset={chartDataset} rows={chartRows} mode="chart" datasetHref={datasetHref} />
                  ) : (
                    <span>{values.visualisation.trim() === '' ? 'Pick a chart type to see the chart.' : 'Fix the JSON below to see the chart.'}</span>
                  )}
                </div>
              </section>
            </div>
            <Field label="Visualisation (JSON)" hint='Written by the chart builder, e.g. {"chartjs-chart": {"chartType": "bar"}}' {...fieldProps('visualisation')}>
              <Textarea textarea={{ className: styles.mono, spellCheck: false }} value={values.visualisation} onChange={change('visualisation')} disabled={busy} rows={5} resize="vertical" />
            </Field>
            <Field label="Metadata (JSON)" hint="related_table.columns name the points, its aggregates are drawn; written by the chart builder" {...fieldProps('metadata')}>
              <Textarea textarea={{ className: styles.mono, spellCheck: false }} value={values.metadata} onChange={change('metadata')} disabled={busy} rows={5} resize="vertical" />
            </Field>
          </form>
        )}
      </DrawerBody>
      <DrawerFooter className={styles.footer}>
        <Button appearance="primary" type="submit" form="dataset-editor" disabled={busy || loadError !== null}>
          {busy && !loading ? 'Saving…' : 'Save'}
        </Button>
        <Button onClick={cancel}>Cancel</Button>
      </DrawerFooter>
      <Dialog open={confirmingDiscard} onOpenChange={(_, data) => !data.open && editor.send({ type: 'user.keepEditing' })}>
        <DialogSurface aria-describedby="dataset-editor-discard-text">
          <DialogBody>
            <DialogTitle>{DATASET_FORM_TEXTS.discardTitle}</DialogTitle>
            <DialogContent id="dataset-editor-discard-text">{DATASET_FORM_TEXTS.discardText}</DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => editor.send({ type: 'user.discard' })}>
                {DATASET_FORM_TEXTS.discard}
              </Button>
              <Button onClick={() => editor.send({ type: 'user.keepEditing' })}>{DATASET_FORM_TEXTS.keepEditing}</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </OverlayDrawer>
  );
}
