import { Body1Strong, Button, Caption1, Input, makeStyles, MessageBar, MessageBarActions, MessageBarBody, Spinner, tokens } from '@fluentui/react-components';
import { ArrowSyncRegular, ChartMultipleRegular, ChevronDownRegular, ChevronRightRegular, SearchRegular, TableRegular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { defaultLineageView } from '../../domain/lineageGraph';
import { sqlName } from '../../domain/sqlCompletion';
import type { StoreTable } from '../../domain/resources';
import { pathTo } from '../../domain/routes';
import { selectVisibleTables, type storeBrowserMachine } from '../../machines/storeBrowser/storeBrowser.machine';
import { PreviewTable } from './PreviewTable';
import { DateText } from './DateText';
import { InAppLink } from './InAppLink';
import { StoreTableLineage } from './lineage/StoreTableLineage';
import { useScreenSize } from './useScreenSize';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  tools: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  filter: { flexGrow: 1, minWidth: 0 },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  item: { border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, minWidth: 0 },
  header: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`, flexWrap: 'wrap' },
  toggle: { justifyContent: 'flex-start', fontFamily: tokens.fontFamilyMonospace, minWidth: 0, maxWidth: '100%', overflowWrap: 'anywhere', textAlign: 'start' },
  facts: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalXXS, color: tokens.colorNeutralForeground3, flexGrow: 1, alignItems: 'center', minWidth: 0 },
  open: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: `0 ${tokens.spacingHorizontalS} ${tokens.spacingVerticalS}`, minWidth: 0 },
  columns: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  column: {
    fontFamily: tokens.fontFamilyMonospace,
    display: 'inline-block',
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  type: { color: tokens.colorNeutralForeground3, marginLeft: tokens.spacingHorizontalXS },
  muted: { color: tokens.colorNeutralForeground3 },
  chartLink: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS, whiteSpace: 'nowrap' },
});

type Props = {
  readonly browser: ActorRefFrom<typeof storeBrowserMachine>;
  readonly workspaceId: string;
  /** beside a SQL field: a table or column name clicked goes into the query */
  readonly onInsert?: (name: string) => void;
  /** on a store's page: where a table's first chart is built (issue 38), null when not offered */
  readonly chartPathOf?: (table: StoreTable) => string | null;
};

const NUMBER = new Intl.NumberFormat();

function rowsText(table: StoreTable): string {
  if (table.rows === null || table.rows === undefined) return 'rows not counted (too many to count in time)';
  return `${NUMBER.format(table.rows)}${table.rowsAtLeast === true ? '+' : ''} ${table.rows === 1 && table.rowsAtLeast !== true ? 'row' : 'rows'}`;
}

/** What the workspace's store holds: tables, columns with types, rows, the run that last loaded each, and 20 rows of one. */
export function StoreBrowser({ browser, workspaceId, onInsert, chartPathOf }: Props) {
  const styles = useStyles();
  const loading = useSelector(browser, (s) => s.matches('loading'));
  const error = useSelector(browser, (s) => (s.matches('failed') ? s.context.error : null));
  const tables = useSelector(browser, (s) => s.context.tables);
  const visible = useSelector(browser, selectVisibleTables);
  const filter = useSelector(browser, (s) => s.context.filter);
  const open = useSelector(browser, (s) => s.context.open);
  const sample = useSelector(browser, (s) => s.context.sample);
  const sampleError = useSelector(browser, (s) => s.context.sampleError);
  const sampling = useSelector(browser, (s) => s.matches({ ready: 'sampling' }));
  // the lineage view the person picked, else the screen's width decides (a phone starts on the list)
  const pickedView = useSelector(browser, (s) => s.context.lineageView);
  const screen = useScreenSize();
  const lineageView = pickedView ?? defaultLineageView(screen);

  if (error !== null) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{error}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => browser.send({ type: 'user.retry' })}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (tables === null) return <Spinner size="tiny" label="Reading the store's tables" />;

  return (
    <div className={styles.root}>
      <div className={styles.tools}>
        <Input
          className={styles.filter}
          contentBefore={<SearchRegular />}
          placeholder="Filter tables and columns"
          aria-label="Filter tables and columns"
          value={filter}
          onChange={(_, data) => browser.send({ type: 'user.filter', text: data.value })}
        />
        <Button appearance="subtle" icon={loading ? <Spinner size="extra-tiny" /> : <ArrowSyncRegular />} aria-label="Refresh tables" disabled={loading} onClick={() => browser.send({ type: 'user.refresh' })} />
      </div>
      {tables.length === 0 ? (
        <Body1Strong as="p">
          The store has no tables yet: run a pipeline that loads into it, and its tables show here.
        </Body1Strong>
      ) : visible.length === 0 ? (
        <Caption1 className={styles.muted}>No table or column matches “{filter.trim()}”.</Caption1>
      ) : (
        <ul className={styles.list} aria-label="Store tables">
          {visible.map((table) => {
            const isOpen = open?.name === table.name;
            return (
              <li key={table.name} className={styles.item}>
                <div className={styles.header}>
                  <Button
                    appearance="transparent"
                    className={styles.toggle}
                    icon={isOpen ? <ChevronDownRegular /> : <ChevronRightRegular />}
                    aria-expanded={isOpen}
                    onClick={() => browser.send(isOpen ? { type: 'user.close' } : { type: 'user.open', table })}
                  >
                    {table.name}
                  </Button>
                  <Caption1 className={styles.facts}>
                    <span>{rowsText(table)}</span>
                    <span>
                      {table.columns.length} {table.columns.length === 1 ? 'column' : 'columns'}
                    </span>
                    {table.lastLoad ? (
                      <span>
                        Loaded <DateText iso={table.lastLoad.loaded} withTime />
                        {table.lastLoad.pipelineId && table.lastLoad.pipelineName ? (
                          <>
                            {' by '}
                            <InAppLink to={pathTo('pipeline', { workspaceId, pipelineId: table.lastLoad.pipelineId })}>{table.lastLoad.pipelineName}</InAppLink>
                          </>
                        ) : null}
                      </span>
                    ) : (
                      <span>Not loaded by a pipeline</span>
                    )}
                  </Caption1>
                  {chartPathOf?.(table) && (
                    <InAppLink to={chartPathOf(table)!} className={styles.chartLink} aria-label={`Build a chart of ${table.name}`}>
                      <ChartMultipleRegular aria-hidden /> Chart
                    </InAppLink>
                  )}
                  {onInsert && (
                    <Button size="small" icon={<TableRegular />} onClick={() => onInsert(sqlName(table.name))} aria-label={`Insert ${table.name} into the query`}>
                      Insert
                    </Button>
                  )}
                </div>
                {isOpen && (
                  <div className={styles.open}>
                    <ul className={styles.columns} aria-label={`Columns of ${table.name}`}>
                      {table.columns.map((column) => (
                        <li key={column.name}>
                          {onInsert ? (
                            <Button size="small" appearance="secondary" className={styles.column} onClick={() => onInsert(sqlName(column.name))} title={`Insert ${column.name} into the query`}>
                              {column.name}
                              <span className={styles.type}>{column.type}</span>
                            </Button>
                          ) : (
                            <Caption1 className={styles.column}>
                              {column.name}
                              <span className={styles.type}>{column.type}</span>
                            </Caption1>
                          )}
                        </li>
                      ))}
                    </ul>
                    {sampling ? (
                      <Spinner size="tiny" label="Reading the first rows" />
                    ) : sampleError !== null ? (
                      <MessageBar intent="error">
                        <MessageBarBody>{sampleError}</MessageBarBody>
                        <MessageBarActions>
                          <Button onClick={() => browser.send({ type: 'user.retry' })}>Try again</Button>
                        </MessageBarActions>
                      </MessageBar>
                    ) : sample !== null ? (
                      <PreviewTable preview={{ columns: sample.columns.map((c) => c.name), rows: sample.rows, truncated: sample.truncated }} rowsShown={sample.rows.length} label={`First rows of ${table.name}`} />
                    ) : null}
                    <StoreTableLineage table={table} view={lineageView} onView={(view) => browser.send({ type: 'user.lineageView', view })} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
