import {
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { ArrowResetRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { formatJobDate } from '../../../../../domain/constants';
import { hasLink } from '../../../../../domain/hal';
import { REL } from '../../../../../domain/relations';
import type { Pipeline, PipelineState } from '../../../../../domain/resources';
import { useFullRefresh, usePipelineState } from '../../../../data/pipelines';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  position: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * Where the pipeline's next run resumes (its bookmarks per stream), and Full refresh, which clears
 * them after a confirmation. Shown to those the pipeline offers its 'state' link (admins).
 */
export function StatePanel({ pipeline, reloadKey }: { pipeline: Pipeline; reloadKey: number }) {
  const styles = useStyles();
  const [cleared, setCleared] = useState(0);
  const query = usePipelineState(pipeline, reloadKey * 1_000 + cleared);
  const refresh = useFullRefresh();
  const [confirming, setConfirming] = useState(false);
  if (query.state.status === 'idle') return null;
  const state: PipelineState | undefined = query.data;
  const bookmarked = (state?.states ?? []).filter((s) => s.bookmarks.length > 0);

  const clear = async () => {
    const outcome = await refresh.run(pipeline);
    if (outcome.ok) {
      setConfirming(false);
      setCleared((n) => n + 1);
    }
  };

  return (
    <section className={styles.panel} aria-label="Incremental state">
      <div className={styles.head}>
        <Subtitle2>Next run resumes from</Subtitle2>
        {hasLink(pipeline, REL.fullRefresh) && bookmarked.length > 0 && (
          <Button size="small" icon={<ArrowResetRegular />} onClick={() => (refresh.clearError(), setConfirming(true))}>
            Full refresh
          </Button>
        )}
      </div>
      {query.state.status === 'failed' ? (
        <MessageBar intent="error">
          <MessageBarBody>{query.state.message}</MessageBarBody>
        </MessageBar>
      ) : state === undefined ? (
        <Spinner size="tiny" />
      ) : bookmarked.length === 0 ? (
        <Caption1 className={styles.muted}>No bookmark: the next run loads everything.</Caption1>
      ) : (
        bookmarked.map((s) => (
          <div key={s.stateId}>
            <Caption1 className={styles.muted}>
              {s.stateId}
              {s.updated ? ` · saved ${formatJobDate(s.updated)}` : ''}
            </Caption1>
            <ul className={styles.list}>
              {s.bookmarks.map((b) => (
                <li key={b.stream}>
                  {b.stream}: <span className={styles.position}>{b.position}</span>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
      <Dialog open={confirming} onOpenChange={(_, data) => setConfirming(data.open)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>Full refresh</DialogTitle>
            <DialogContent>
              {refresh.error !== null && (
                <MessageBar intent="error">
                  <MessageBarBody>{refresh.error}</MessageBarBody>
                </MessageBar>
              )}
              {`Forget where '${pipeline.name}' stopped? Its next run loads every row again.`}
            </DialogContent>
            <DialogActions>
              <Button disabled={refresh.pending} onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button appearance="primary" disabled={refresh.pending} icon={refresh.pending ? <Spinner size="tiny" /> : null} onClick={() => void clear()}>
                Full refresh
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </section>
  );
}
