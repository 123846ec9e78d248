// chart.js renderer for chartjs-chart and google-chart (lazily loaded: chart.js is fetched only
// when a dataset draws a chart, and the treemap plugin only for a treemap).
import {
  ArcElement, BarController, BubbleController, BarElement, CategoryScale, Chart, DoughnutController, Filler, Legend, LinearScale,
  LineController, LineElement, PieController, PointElement, ScatterController, Tooltip, type ChartComponentLike,
} from 'chart.js';
import { makeStyles } from '@fluentui/react-components';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChartModel } from '../../../domain/visualisation/chartData';
import { chartConfig, chartHeight } from './chartConfig';
import { VisualisationMessage } from './VisualisationMessage';
import { honourMotionPreference } from '../../reducedMotion';

/** Shown above the chart area when chart.js refuses the configuration. */
export const CHART_FAILED = 'This chart could not be drawn';

const COMMON: ChartComponentLike[] = [Legend, Tooltip];
honourMotionPreference(Chart.defaults);
const AXES: ChartComponentLike[] = [CategoryScale, LinearScale];

/** Only the pieces a chart type needs are registered (chart.js is tree-shaken to what is imported). */
const PIECES: Record<Exclude<ChartModel['chartType'], 'treemap'>, ChartComponentLike[]> = {
  bar: [BarController, BarElement, ...AXES],
  horizontalBar: [BarController, BarElement, ...AXES],
  line: [LineController, LineElement, PointElement, ...AXES],
  area: [LineController, LineElement, PointElement, Filler, ...AXES],
  scatter: [ScatterController, PointElement, LinearScale],
  bubble: [BubbleController, PointElement, LinearScale],
  pie: [PieController, ArcElement],
  doughnut: [DoughnutController, ArcElement],
};

async function register(chartType: ChartModel['chartType']): Promise<void> {
  if (chartType === 'treemap') {
    const { TreemapController, TreemapElement } = await import('chartjs-chart-treemap');
    // the treemap's own defaults name hidden linear x and y scales
    Chart.register(...COMMON, LinearScale, TreemapController, TreemapElement);
    return;
  }
  Chart.register(...COMMON, ...PIECES[chartType]);
}

const useStyles = makeStyles({ frame: { position: 'relative', width: '100%' } });

export interface ChartJsChartProps {
  model: ChartModel;
  userOptions: Record<string, unknown>;
  compact: boolean;
  title: string;
  /** follows a drill-down link of the series clicked */
  onNavigate: (href: string) => void;
}

export default function ChartJsChart({ model, userOptions, compact, title, onNavigate }: ChartJsChartProps) {
  const styles = useStyles();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart | null>(null);
  const [registered, setRegistered] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const navigateRef = useRef(onNavigate);
  navigateRef.current = onNavigate;

  useEffect(() => {
    let live = true;
    void register(model.chartType).then(() => {
      if (live) setRegistered(model.chartType);
    });
    return () => {
      live = false;
    };
  }, [model.chartType]);

  const config = useMemo(
    () => chartConfig({
      model,
      userOptions,
      compact,
      onSeriesClick: (index) => {
        const href = model.series[index]?.href;
        if (href) navigateRef.current(href);
      },
    }),
    [model, userOptions, compact],
  );

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || registered !== model.chartType) return;
    const existing = chartRef.current;
    // a poll's new rows update the drawn chart in place (no flash); a new kind of chart starts over
    if (existing && (existing.config as { type?: string }).type === config.type) {
      existing.data = config.data;
      existing.options = config.options ?? {};
      existing.update('none');
      return;
    }
    existing?.destroy();
    chartRef.current = null;
    try {
      chartRef.current = new Chart(canvas, config);
      setFailure(null);
    } catch (error) {
      // options from the dataset's JSON can still make chart.js refuse: say so instead of breaking the page
      setFailure(error instanceof Error ? error.message : String(error));
    }
  }, [config, registered, model.chartType]);

  useEffect(() => () => {
    chartRef.current?.destroy();
    chartRef.current = null;
  }, []);

  return (
    <>
    {failure ? <VisualisationMessage message={CHART_FAILED} detail={failure} /> : null}
    <div className={styles.frame} style={{ height: chartHeight(model, compact) }}>
      <canvas ref={canvasRef} role="img" aria-label={title} />
    </div>
    </>
  );
}
