import {
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Switch,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular, ErrorCircleRegular, SearchRegular, TableRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { isActiveJob, runTimeText } from '../../../domain/jobs';
import { firstErrorIndex, formatLogTime, isErrorLine, searchLog, visibleRows, WRAP_MAX_LINES } from '../../../domain/logView';
import type { Job } from '../../../domain/resources';
import { selectCanDownload, selectNoLogs } from '../../../machines/logStream/logStream.machine';
import { useMachines } from '../../MachinesProvider';
import { jobLogMachines } from '../../machineAreas/jobLog';
import { useDownloadLog } from '../../data/pipelines';
import { LOADED_DATA_TEXTS } from '../../../domain/loadedData';
import { InAppLink } from '../InAppLink';
import { JobStatusBadge } from './JobStatusBadge';
import { RowsCell } from './RowsCell';
import { useNow } from '../useNow';
import { useScreenSize } from '../useScreenSize';

const ROW_HEIGHT = 22;
const VIEWPORT_HEIGHT = 420;

const useStyles = makeStyles({
  surface: { maxWidth: 'min(1100px, 96vw)', width: '100%' },
  summary: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalXS, color: tokens.colorNeutralForeground3, marginBottom: tokens.spacingVerticalS },
  tools: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS, marginBottom: tokens.spacingVerticalS },
  search: { flexGrow: 1, minWidth: '160px' },
  viewport: {
    height: `${String(VIEWPORT_HEIGHT)}px`,
    maxHeight: '60vh',
    overflowY: 'auto',
    overflowX: 'hidden',
    position: 'relative',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
  },
  header: {
    display: 'grid',
    gridTemplateColumns: '56px 216px 1fr',
    fontWeight: tokens.fontWeightSemibold,
    padding: `0 ${tokens.spacingHorizontalS}`,
    color: tokens.colorNeutralForeground3,
  },
  row: {
    display: 'grid',
    gridTemplateColumns: '56px 216px 1fr',
    position: 'absolute',
    left: 0,
    right: 0,
    height: `${String(ROW_HEIGHT)}px`,
    lineHeight: `${String(ROW_HEIGHT)}px`,
    padding: `0 ${tokens.spacingHorizontalS}`,
    whiteSpace: 'pre',
  },
  cell: { overflow: 'hidden', textOverflow: 'ellipsis' },
  // on a phone a wrapped log has no timestamp column: its header neither
  wrappedHeader: { '@media (max-width: 600px)': { gridTemplateColumns: '40px 1fr' } },
  // a wrapped row grows with its message, in the flow rather than at a computed place
  wrappedRow: {
    display: 'grid',
    gridTemplateColumns: '56px 216px 1fr',
    padding: `2px ${tokens.spacingHorizontalS}`,
    lineHeight: '18px',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    '@media (max-width: 600px)': { gridTemplateColumns: '40px 1fr' },
  },
  error: { color: tokens.colorPaletteRedForeground1 },
  hit: { backgroundColor: tokens.colorPaletteYellowBackground2 },
  current: { outline: `2px solid ${tokens.colorBrandStroke1}`, outlineOffset: '-2px' },
  empty: { padding: tokens.spacingHorizontalM, color: tokens.colorNeutralForeground3 },
  tablesLink: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, alignSelf: 'center', marginRight: tokens.spacingHorizontalM },
  narrowHide: { '@media (max-width: 600px)': { display: 'none' } },
});

/**
 * The log modal (spec 001 §2) with follow mode, search, first error and virtualised rows.
 * `tablesOf` says where the job's tables are once it has completed (issue 38: 'View tables').
 */
export function LogModal({ job, onClose, tablesOf }: { job: Job; onClose: () => void; tablesOf?: (job: Job) => string | null }) {
  const styles = useStyles();
  const machines = useMachines(jobLogMachines);
  const actor = useActorRef(machines.logStream, { input: { job } });
  const lines = useSelector(actor, (s) => s.context.lines);
  const status = useSelector(actor, (s) => s.context.job.status);
  // the job as last re-read while it runs: its start, end and rows for the summary line
  const latest = useSelector(actor, (s) => s.context.job);
  const now = useNow(isActiveJob(latest));
  const tablesPath = tablesOf?.(latest) ?? null;
  const spinning = useSelector(actor, (s) => s.context.spinning && s.context.lines.length === 0);
  const noLogs = useSelector(actor, selectNoLogs);
  const canDownload = useSelector(actor, selectCanDownload);
  const failed = useSelector(actor, (s) => (s.matches('failed') ? s.context.error : null));
  const cancelled = useSelector(actor, (s) => s.matches('cancelled'));

  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [follow, setFollow] = useState(true);
  const [query, setQuery] = useState('');
  const [hitIndex, setHitIndex] = useState(0);
  const [current, setCurrent] = useState<number | null>(null);
  const downloadLog = useDownloadLog();
  const downloadError = downloadLog.error;
  const downloading = downloadLog.pending;
  // on a phone a line cut with '…' cannot be read: lines wrap there unless turned off
  const size = useScreenSize();
  const [wrap, setWrap] = useState(size === 'small');
  const wrapping = wrap && lines.length <= WRAP_MAX_LINES;

  const hits = useMemo(() => searchLog(lines, query), [lines, query]);
  const hitSet = useMemo(() => new Set(hits), [hits]);

  const scrollToRow = (index: number) => {
    const element = viewport.current;
    if (element === null) return;
    setCurrent(index);
    if (wrapping) {
      element.querySelector(`[aria-rowindex="${String(index + 1)}"]`)?.scrollIntoView({ block: 'center' });
      setScrollTop(element.scrollTop);
      return;
    }
    element.scrollTop = Math.max(0, index * ROW_HEIGHT - VIEWPORT_HEIGHT / 3);
    setScrollTop(element.scrollTop);
    setCurrent(index);
  };

  // Follow mode keeps the newest line in view as lines arrive.
  useEffect(() => {
    const element = viewport.current;
    if (!follow || element === null) return;
    element.scrollTop = element.scrollHeight;
    setScrollTop(element.scrollTop);
  }, [follow, lines.length]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const element = event.currentTarget;
    setScrollTop(element.scrollTop);
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < ROW_HEIGHT * 2;
    if (!atBottom && follow) setFollow(false);
  };

  const jumpToHit = (step: number) => {
    if (hits.length === 0) return;
    const next = (hitIndex + step + hits.length) % hits.length;
    setHitIndex(next);
    setFollow(false);
    scrollToRow(hits[next] ?? 0);
  };

  const jumpToFirstError = () => {
    const index = firstErrorIndex(lines);
    if (index < 0) return;
    setFollow(false);
    scrollToRow(index);
  };

  const download = () => void downloadLog.run(job);

  const { start, end } = visibleRows(scrollTop, VIEWPORT_HEIGHT, ROW_HEIGHT, lines.length);
  const hasError = useMemo(() => firstErrorIndex(lines) >= 0, [lines]);

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface} aria-label="Job log">
        <DialogBody>
          <DialogTitle>
            Log <JobStatusBadge status={status} />
          </DialogTitle>
          <DialogContent>
            <Caption1 className={styles.summary} aria-label="Run">
              {runTimeText(latest, now)}
              {latest.rowsLoaded !== null && latest.rowsLoaded !== undefined && (
                <>
                  {' · Rows '}
                  <RowsCell job={latest} label="this run" />
                </>
              )}
            </Caption1>
            <div className={styles.tools}>
              <Input
                className={styles.search}
                contentBefore={<SearchRegular />}
                placeholder="Search the log"
                aria-label="Search the log"
                value={query}
                onChange={(_, data) => {
                  setQuery(data.value);
                  setHitIndex(-1);
                }}
                onKeyDown={(event) => event.key === 'Enter' && jumpToHit(event.shiftKey ? -1 : 1)}
              />
              <Caption1 aria-live="polite">{query.trim() === '' ? '' : `${String(hits.length)} found`}</Caption1>
              <Button size="small" disabled={hits.length === 0} onClick={() => jumpToHit(1)}>
                Next match
              </Button>
              <Button size="small" icon={<ErrorCircleRegular />} disabled={!hasError} onClick={jumpToFirstError}>
                First error
              </Button>
              <Switch label="Follow" checked={follow} onChange={(_, data) => setFollow(data.checked)} />
              <Switch label="Wrap lines" checked={wrapping} disabled={lines.length > WRAP_MAX_LINES} onChange={(_, data) => setWrap(data.checked)} />
            </div>
            {failed !== null && (
              <MessageBar intent="error">
                <MessageBarBody>{failed}</MessageBarBody>
              </MessageBar>
            )}
            {cancelled && (
              <MessageBar intent="warning">
                <MessageBarBody>The log could not be read and stopped updating.</MessageBarBody>
              </MessageBar>
            )}
            {downloadError !== null && (
              <MessageBar intent="error">
                <MessageBarBody>{downloadError}</MessageBarBody>
              </MessageBar>
            )}
            <div className={wrapping ? `${styles.header} ${styles.wrappedHeader}` : styles.header} aria-hidden>
              <span>#</span>
              <span className={styles.narrowHide}>Timestamp</span>
              <span>Message</span>
            </div>
            <div ref={viewport} className={styles.viewport} onScroll={onScroll} role="table" aria-label="Log lines" aria-rowcount={lines.length} data-testid="log-viewport">
              {spinning ? (
                <div className={styles.empty}>
                  <Spinner size="small" label="Loading logs" />
                </div>
              ) : noLogs ? (
                <div className={styles.empty}>No logs yet</div>
              ) : wrapping ? (
                <div>
                  {lines.map((line, index) => {
                    const classes = [styles.wrappedRow, isErrorLine(line.message) ? styles.error : '', hitSet.has(index) ? styles.hit : '', current === index ? styles.current : ''].join(' ');
                    return (
                      <div key={line.sequence} role="row" aria-rowindex={index + 1} className={classes} data-sequence={line.sequence}>
                        <span role="cell">{line.sequence}</span>
                        <span role="cell" className={styles.narrowHide}>
                          {formatLogTime(line.timestamp)}
                        </span>
                        <span role="cell">{line.message}</span>
                      </div>
                    );
                  })}
                </div>
              ) : (
                <div style={{ height: `${String(lines.length * ROW_HEIGHT)}px`, position: 'relative' }}>
                  {lines.slice(start, end).map((line, offset) => {
                    const index = start + offset;
                    const classes = [styles.row, isErrorLine(line.message) ? styles.error : '', hitSet.has(index) ? styles.hit : '', current === index ? styles.current : ''].join(' ');
                    return (
                      <div key={line.sequence} role="row" aria-rowindex={index + 1} className={classes} style={{ top: `${String(index * ROW_HEIGHT)}px` }} data-sequence={line.sequence}>
                        <span role="cell" className={styles.cell}>
                          {line.sequence}
                        </span>
                        <span role="cell" className={`${styles.cell} ${styles.narrowHide}`}>
                          {formatLogTime(line.timestamp)}
                        </span>
                        <span role="cell" className={styles.cell} title={line.message}>
                          {line.message}
                        </span>
                      </div>
                    );
                  })}
                </div>
              )}
            </div>
            <Caption1>{`${String(lines.length)} lines`}</Caption1>
          </DialogContent>
          <DialogActions>
            {tablesPath !== null && (
              <InAppLink to={tablesPath} className={styles.tablesLink}>
                <TableRegular aria-hidden /> {LOADED_DATA_TEXTS.viewTables}
              </InAppLink>
            )}
            {canDownload && (
              // disabledFocusable: the button keeps the focus while it downloads, so Esc still closes the dialog
              <Button icon={downloading ? <Spinner size="tiny" /> : <ArrowDownloadRegular />} disabledFocusable={downloading} onClick={download}>
                Download
              </Button>
            )}
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
