import { Spinner } from '@fluentui/react-components';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Dataset } from '../../../domain/resources';
import { carouselSlides } from '../../../domain/visualisation/carousel';
import { buildChartModel } from '../../../domain/visualisation/chartData';
import { safeUrl } from '../../../domain/visualisation/links';
import { CONTINUOUS_POLL_MS, NO_DATA_TO_DISPLAY } from '../../../domain/visualisation/messages';
import { columnLabels, parseMetadata, rawColumnValue, type MetadataResult } from '../../../domain/visualisation/metadata';
import { buildMetric } from '../../../domain/visualisation/metric';
import { parseVisualisation, type VisualisationSpec } from '../../../domain/visualisation/spec';
import { cellText } from '../../../domain/visualisation/table';
import { useOptionalRuntime } from '../../runtime';
import { HtmlTable } from './HtmlTable';
import type { ImageItem } from './ImageView';
import { VisualisationMessage } from './VisualisationMessage';

// Every renderer is its own chunk: chart.js, handsontable and mermaid are fetched only when a
// dataset uses them.
const ChartJsChart = lazy(() => import('./ChartJsChart'));
const HtmlMetric = lazy(() => import('./HtmlMetric'));
const Carousel = lazy(() => import('./Carousel'));
const ImageView = lazy(() => import('./ImageView'));
const MermaidDiagram = lazy(() => import('./MermaidDiagram'));
const HandsontableGrid = lazy(() => import('./HandsontableGrid'));

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

const loading = <Spinner size="small" label="Loading data" />;

/** The images of an image visualisation: each row's safe url, else the visualisation's own url. */
function imagesOf(rows: readonly Record<string, unknown>[], metadataName: string | null, specUrl: string | null, title: string): ImageItem[] {
  const fromRows = rows.flatMap((row) => {
    const url = rawColumnValue(row, metadataName, 'url');
    const safe = safeUrl(typeof url === 'string' ? url : null);
    const name = rawColumnValue(row, metadataName, 'name');
    return safe ? [{ url: safe, alt: name === undefined || name === null ? title : cellText(name) }] : [];
  });
  if (fromRows.length > 0) return fromRows;
  const own = safeUrl(specUrl);
  return own ? [{ url: own, alt: title }] : [];
}

interface ChartViewProps {
  spec: Extract<VisualisationSpec, { kind: 'chart' }>;
  metadata: MetadataResult;
  rows: readonly Record<string, unknown>[];
  datasetHref: (alias: string) => string;
  compact: boolean;
  title: string;
  onNavigate: (href: string) => void;
}

/**
 * A chart's model is rebuilt only when its inputs change (new rows from a poll), not on every
 * render of the page, so chart.js redraws only then. datasetHref is read through a ref: pages
 * pass a fresh function each render, and its answers change only with the dataset.
 */
function ChartView({ spec, metadata, rows, datasetHref, compact, title, onNavigate }: ChartViewProps) {
  const hrefRef = useRef(datasetHref);
  hrefRef.current = datasetHref;
  const result = useMemo(
    () => buildChartModel({ chartType: spec.chartType, stacked: spec.stacked, metadata, rows, datasetHref: (alias) => hrefRef.current(alias), compact }),
    [spec, metadata, rows, compact],
  );
  if (!result.ok) return <VisualisationMessage message={result.message} detail={result.detail} />;
  // google-chart options are Google's, not chart.js's: only the type and stacking carry over
  const userOptions = spec.source === 'chartjs-chart' ? spec.options : NO_OPTIONS;
  return <ChartJsChart model={result.model} userOptions={userOptions} compact={compact} title={title} onNavigate={onNavigate} />;
}

const NO_OPTIONS: Record<string, unknown> = {};

function metadataOrNull(metadata: MetadataResult) {
  return metadata.ok ? metadata.metadata : null;
}

interface BodyInput extends Required<Pick<VisualisationProps, 'dataset' | 'mode' | 'datasetHref' | 'compact'>> {
  rows: readonly Record<string, unknown>[] | undefined;
  spec: VisualisationSpec;
  metadata: MetadataResult;
  licenseKey: string | null;
  onNavigate: (href: string) => void;
}

function body({ dataset, rows, mode, spec, metadata, datasetHref, compact, licenseKey, onNavigate }: BodyInput): ReactNode {
  const meta = metadataOrNull(metadata);
  const labels = (data: readonly Record<string, unknown>[]) => (meta ? columnLabels(meta, data) : undefined);
  // mermaid draws rawData, not rows; everything else waits for the rows
  if (mode === 'chart' && spec.kind === 'mermaid') return <MermaidDiagram text={dataset.rawData ?? ''} />;
  if (rows === undefined) return loading;
  if (mode === 'table' || spec.kind === 'table') {
    return rows.length === 0 ? <VisualisationMessage message={NO_DATA_TO_DISPLAY} /> : <HtmlTable rows={rows} labels={labels(rows)} paging="paged" />;
  }
  switch (spec.kind) {
    case 'chart':
      return <ChartView spec={spec} metadata={metadata} rows={rows} datasetHref={datasetHref} compact={compact} title={dataset.title} onNavigate={onNavigate} />;
    case 'html-table':
      return rows.length === 0 ? <VisualisationMessage message={NO_DATA_TO_DISPLAY} /> : <HtmlTable rows={rows} labels={labels(rows)} paging="limited" />;
    case 'html-metric':
      if (!metadata.ok && metadata.reason !== 'missing') return <VisualisationMessage message={metadata.message} detail={metadata.detail} />;
      return <HtmlMetric metric={buildMetric(rows, meta)} compact={compact} />;
    case 'handsontable-table':
      if (rows.length === 0) return <VisualisationMessage message={NO_DATA_TO_DISPLAY} />;
      // without a licence key the same rows as a plain table; the key is the operator's (README), never a reader's concern
      if (licenseKey === null) return <HtmlTable rows={rows} labels={labels(rows)} paging="paged" />;
      return <HandsontableGrid rows={rows} labels={labels(rows)} licenseKey={licenseKey} compact={compact} />;
    case 'carousel': {
      const result = carouselSlides(rows, meta?.name ?? null);
      if (!result.ok) return <VisualisationMessage message={result.message} detail={result.detail} />;
      return <Carousel slides={result.slides} compact={compact} />;
    }
    case 'image': {
      const images = imagesOf(rows, meta?.name ?? null, spec.url, dataset.title);
      return images.length === 0 ? <VisualisationMessage message={NO_DATA_TO_DISPLAY} /> : <ImageView images={images} compact={compact} />;
    }
    default:
      return <HtmlTable rows={rows} labels={labels(rows)} paging="paged" />;
  }
}

/** A dataset's visualisation, or its rows as a table. */
export function Visualisation(props: VisualisationProps): JSX.Element {
  const { dataset, rows, mode, datasetHref, onRefresh, compact = false } = props;
  useContinuousPoll(dataset.continuousPoll === true, onRefresh);
  const spec = useMemo(() => parseVisualisation(dataset.visualisation), [dataset.visualisation]);
  const metadata = useMemo(() => parseMetadata(dataset.metadata), [dataset.metadata]);
  const licenseKey = useOptionalRuntime()?.config.handsontableLicenseKey ?? null;
  const navigate = useNavigate();
  // in-app paths go through the router; other (http(s)) drill-down links open in a new tab
  const onNavigate = useCallback((href: string) => {
    if (href.startsWith('/')) void navigate(href);
    else window.open(href, '_blank', 'noopener,noreferrer');
  }, [navigate]);
  return <Suspense fallback={loading}>{body({ dataset, rows, mode, spec, metadata, datasetHref, compact, licenseKey, onNavigate })}</Suspense>;
}
