import { Spinner } from '@fluentui/react-components';
import { useEffect } from 'react';
import type { Dataset } from '../../../../domain/resources';
import { CONTINUOUS_POLL_MS } from '../../../../domain/visualisation/messages';
import { HtmlTable } from './HtmlTable';

export interface VisualisationProps {
  /** the dataset's visualisation and metadata JSON text, title, alias, rawData, continuousPoll */
  dataset: Pick<Dataset, 'title' | 'alias' | 'visualisation' | 'metadata' | 'rawData' | 'continuousPoll'>;
  /** rows from the data link (undefined while loading, [] when the server answered 204) */
  rows: readonly Record<string, unknown>[] | undefined;
  /** 'chart' draws the visualisation; 'table' shows the rows as a table (the action bar's toggle) */
  mode: 'chart' | 'table';
  /** where drill-down links (metadata links {dataset: alias}) go: the page supplies pathTo(...) */
  datasetHref: (alias: string) => string;
  /** re-fetch the rows; called every 5 s while mounted when continuousPoll is set */
  onRefresh?: () => void;
  /** compact preview (Lab list cards): smaller height, no legend */
  compact?: boolean;
}

/** Calls onRefresh every 5 s while mounted when the dataset polls continuously (spec 002 §4, §9). */
function useContinuousPoll(enabled: boolean, onRefresh: (() => void) | undefined) {
  useEffect(() => {
    if (!enabled || !onRefresh) return undefined;
    const continuousPollInterval = window.setInterval(onRefresh, CONTINUOUS_POLL_MS);
    return () => window.clearInterval(continuousPollInterval);
  }, [enabled, onRefresh]);
}

/** A dataset's visualisation, or its rows as a table. */
export function Visualisation(props: VisualisationProps): JSX.Element {
  const { dataset, rows, onRefresh } = props;
  useContinuousPoll(dataset.continuousPoll === true, onRefresh);
  if (rows === undefined) return <Spinner size="small" label="Loading data" />;
  return <HtmlTable rows={rows} paging="paged" />;
}
