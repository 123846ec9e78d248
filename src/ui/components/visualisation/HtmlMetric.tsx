// html-metric: big figures on the first palette colour (lazily loaded like every renderer).
import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import type { MetricModel } from '../../../domain/visualisation/metric';
import { NOTHING_HERE, showingRowsText } from '../../../domain/visualisation/messages';
import { cssColour, textOn } from '../../../domain/visualisation/palette';
import { VisualisationMessage } from './VisualisationMessage';

const useStyles = makeStyles({
  grid: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
  card: {
    flex: '1 1 180px',
    minWidth: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
  },
  value: { fontSize: tokens.fontSizeHero800, lineHeight: tokens.lineHeightHero800, fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  compactValue: { fontSize: tokens.fontSizeBase600, lineHeight: tokens.lineHeightBase600 },
  label: { fontSize: tokens.fontSizeBase300, overflowWrap: 'anywhere' },
});

export default function HtmlMetric({ metric, compact }: { metric: MetricModel; compact: boolean }) {
  const styles = useStyles();
  const figures = metric.rows.flat();
  if (figures.length === 0) return <VisualisationMessage message={NOTHING_HERE} />;
  const background = cssColour(metric.background);
  const color = textOn(metric.background);
  return (
    <div>
      <div className={styles.grid}>
        {figures.map((figure, index) => (
          <div key={index} className={styles.card} style={{ backgroundColor: background, color }} data-testid="metric">
            <span className={compact ? `${styles.value} ${styles.compactValue}` : styles.value}>{figure.number === null ? figure.value : figure.number.toLocaleString()}</span>
            <span className={styles.label}>{figure.label}</span>
          </div>
        ))}
      </div>
      {metric.rows.length < metric.total ? <Caption1>{showingRowsText(metric.rows.length, metric.total)}</Caption1> : null}
    </div>
  );
}
