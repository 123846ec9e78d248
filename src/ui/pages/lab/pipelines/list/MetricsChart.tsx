import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, useRef } from 'react';
import { formatJobDate } from '../../../../../domain/constants';
import type { Metric } from '../../../../../domain/resources';
import { honourMotionPreference } from '../../../../reducedMotion';

const useStyles = makeStyles({
  box: { position: 'relative', height: '180px', width: '100%' },
});

/** Rows loaded and duration per job; chart.js is imported only when a History tab opens. */
export function MetricsChart({ metrics: all }: { metrics: readonly Metric[] }) {
  const styles = useStyles();
  // A queued or running job has neither rows nor a duration yet: chart the ended ones.
  const metrics = useMemo(() => all.filter((m) => m.endTime != null), [all]);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let chart: { destroy: () => void } | undefined;
    let cancelled = false;
    // The pieces this chart draws, not chart.js/auto: chart.js is one module, so every piece any
    // importer names goes into its one chunk, which the feed's charts load too (issue 39).
    void import('chart.js').then(({ Chart, BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip }) => {
      if (cancelled || canvas.current === null) return;
      Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);
      honourMotionPreference(Chart.defaults);
      const ordered = [...metrics].sort((a, b) => a.created.localeCompare(b.created));
      chart = new Chart(canvas.current, {
        type: 'bar',
        data: {
          labels: ordered.map((m) => formatJobDate(m.created)),
          datasets: [
            { type: 'bar', label: 'Rows loaded', data: ordered.map((m) => m.rowsLoaded), backgroundColor: '#483D8B', yAxisID: 'rows', maxBarThickness: 48, order: 1 },
            // drawn over the bars, with points large enough to see when there is a single run
            { type: 'line', label: 'Duration (s)', data: ordered.map((m) => m.duration ?? null), borderColor: '#E8590C', backgroundColor: '#E8590C', pointRadius: 5, yAxisID: 'seconds', order: 0 },
          ],
        },
        options: {
          maintainAspectRatio: false,
          animation: false,
          scales: { rows: { position: 'left', beginAtZero: true }, seconds: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false } } },
        },
      });
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [metrics]);

  if (metrics.length === 0) return <Caption1 style={{ color: tokens.colorNeutralForeground3 }}>No runs to chart yet.</Caption1>;
  const total = metrics.reduce((sum, m) => sum + m.rowsLoaded, 0);
  return (
    <div className={styles.box} role="img" aria-label={`Rows loaded per job: ${String(total)} in ${String(metrics.length)} jobs`} data-rows-loaded={total}>
      <canvas ref={canvas} />
    </div>
  );
}
