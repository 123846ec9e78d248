import { Caption1, makeStyles, MessageBar, MessageBarBody, tokens } from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons';
import { useMemo } from 'react';
import { freshnessLine } from '../../../../domain/datasetText';
import { pathTo } from '../../../../domain/routes';
import type { Freshness as FreshnessData } from '../../../../domain/resources';
import { InAppLink } from '../../../components/InAppLink';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  line: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, color: tokens.colorNeutralForeground3 },
});

/** 'Refreshed {when} by {pipeline} run' (the run linked for callers who see jobs), failures, missing tables. */
export function Freshness({ freshness, workspaceId, canSeeJobs }: { freshness: FreshnessData | null | undefined; workspaceId: string; canSeeJobs: boolean }) {
  const styles = useStyles();
  const line = useMemo(() => freshnessLine(freshness, Date.now(), canSeeJobs), [freshness, canSeeJobs]);
  const { refreshed } = line;
  if (refreshed === undefined && line.failed === undefined && line.missing === undefined) return null;
  return (
    <div className={styles.root} aria-label="Freshness">
      {refreshed !== undefined && (
        <Caption1 className={styles.line}>
          <ArrowSyncRegular aria-hidden />
          <span>
            Refreshed {refreshed.when} by{' '}
            {refreshed.run === undefined ? (
              `${refreshed.pipeline} run`
            ) : (
              <InAppLink to={pathTo('pipelines', { workspaceId }, { pipeline: refreshed.run.pipeline, job: refreshed.run.job })}>{`${refreshed.pipeline} run`}</InAppLink>
            )}
          </span>
        </Caption1>
      )}
      {line.failed !== undefined && (
        <MessageBar intent="warning">
          <MessageBarBody>{line.failed}</MessageBarBody>
        </MessageBar>
      )}
      {line.missing !== undefined && <Caption1 className={styles.line}>{line.missing}</Caption1>}
    </div>
  );
}
