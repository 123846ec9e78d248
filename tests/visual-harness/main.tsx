// The visualisation gallery: one case per ?case=, drawn by the real Visualisation component with
// fixture data, for screenshots at 1280 and 375 px (tests/visual-harness/shoot.ts).
/* eslint-disable no-restricted-imports -- this harness exists to render the view layer outside the app */
import { FluentProvider, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { lightTheme } from '../../src/ui/theme';
import { Visualisation, type VisualisationProps } from '../../src/ui/components/visualisation/Visualisation';

type Case = { title: string; visualisation: string | null; metadata: string | null; rows: Record<string, unknown>[] | undefined; rawData?: string; mode?: 'chart' | 'table'; compact?: boolean };

const chart = (chartType: string, options: object = {}) => JSON.stringify({ 'chartjs-chart': { chartType, options } });
const meta = (columns: object[], aggregates: object[], extra: object = {}) => JSON.stringify({ name: 'sales', related_table: { columns, aggregates }, ...extra });
const months = ['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06'];
const revenue = months.map((month, i) => ({ month, revenue: [120500, 118200, 131900, 140250, 138700, 152300][i], orders: [410, 395, 450, 470, 460, 505][i], refunds: [3200, 2900, 4100, 3800, 3500, 3900][i] }));
const longCustomers = Array.from({ length: 40 }, (_, i) => ({ customer: `Customer account number ${i + 1} with a very long trading name that goes on and on Ltd`, revenue: Math.round(100000 / (i + 1)) }));
const manySeries = meta([{ name: 'month' }], Array.from({ length: 16 }, (_, i) => ({ name: `s${i}`, label: `Series ${i + 1}` })));
const manySeriesRows = months.map((month, m) => Object.fromEntries<string | number>([['month', month], ...Array.from({ length: 16 }, (_, i): [string, number] => [`s${i}`, (i + 1) * 10 + m * 3])]));

const CASES: Record<string, Case> = {
  bar: { title: 'Monthly Revenue', visualisation: chart('bar'), metadata: meta([{ name: 'month', label: 'Month' }], [{ name: 'revenue', label: 'Revenue (GBP)' }]), rows: revenue },
  'bar-compact': { title: 'Monthly Revenue', visualisation: chart('bar'), metadata: meta([{ name: 'month', label: 'Month' }], [{ name: 'revenue', label: 'Revenue (GBP)' }]), rows: revenue, compact: true },
  horizontalBar: { title: 'Top customers (long labels)', visualisation: chart('horizontalBar'), metadata: meta([{ name: 'customer' }], [{ name: 'revenue', label: 'Revenue' }]), rows: longCustomers },
  'bar-long-labels': { title: 'Customers (vertical, long labels)', visualisation: chart('bar'), metadata: meta([{ name: 'customer' }], [{ name: 'revenue', label: 'Revenue' }]), rows: longCustomers },
  line: { title: 'Revenue and orders (two axes)', visualisation: chart('line'), metadata: meta([{ name: 'month' }], [{ name: 'revenue', label: 'Revenue', yaxis: 'GBP' }, { name: 'orders', label: 'Orders', yaxis: 'count' }, { name: 'refunds', label: 'Refunds', yaxis: 'GBP' }]), rows: revenue },
  'line-many-series': { title: 'Sixteen series', visualisation: chart('line'), metadata: manySeries, rows: manySeriesRows },
  area: { title: 'Stacked area', visualisation: chart('area', { stacked: true }), metadata: meta([{ name: 'month' }], [{ name: 'revenue', label: 'Revenue' }, { name: 'refunds', label: 'Refunds' }]), rows: revenue },
  scatter: { title: 'Orders against revenue', visualisation: chart('scatter'), metadata: meta([{ name: 'orders' }], [{ name: 'revenue', label: 'Revenue' }]), rows: revenue },
  bubble: { title: 'Orders against revenue, sized by refunds', visualisation: chart('bubble'), metadata: meta([{ name: 'orders', label: 'Orders' }], [{ name: 'revenue', label: 'Revenue' }, { name: 'refunds', label: 'Refunds' }]), rows: revenue },
  pie: { title: 'Customers (pie, 40 slices)', visualisation: chart('pie'), metadata: meta([{ name: 'customer' }], [{ name: 'revenue', label: 'Revenue' }]), rows: longCustomers },
  doughnut: { title: 'Tickets by priority', visualisation: chart('doughnut'), metadata: meta([{ name: 'priority' }], [{ name: 'tickets', label: 'Tickets' }], { palette: [[196, 49, 75], [15, 108, 189], [16, 124, 16]] }), rows: [{ priority: 'High', tickets: 11 }, { priority: 'Normal', tickets: 37 }, { priority: 'Low', tickets: 15 }] },
  treemap: { title: 'Revenue by region', visualisation: chart('treemap'), metadata: meta([{ name: 'region' }], [{ name: 'revenue', label: 'Revenue' }]), rows: [{ region: 'North', revenue: 420 }, { region: 'South', revenue: 260 }, { region: 'East', revenue: 150 }, { region: 'West', revenue: 90 }, { region: 'Islands', revenue: 30 }] },
  'google-chart': { title: 'Google BarChart drawn by chart.js', visualisation: '{"google-chart":{"chartType":"BarChart","options":{"title":"x"}}}', metadata: meta([{ name: 'month' }], [{ name: 'revenue', label: 'Revenue' }]), rows: revenue },
  'html-table': { title: 'html-table', visualisation: '{"html-table":{}}', metadata: meta([{ name: 'customer', label: 'Customer' }], [{ name: 'revenue', label: 'Revenue' }]), rows: longCustomers },
  table: { title: 'Table mode', visualisation: chart('bar'), metadata: meta([{ name: 'month', label: 'Month' }], [{ name: 'revenue', label: 'Revenue' }]), rows: [...revenue, ...revenue, ...revenue], mode: 'table' },
  'html-metric': { title: 'html-metric', visualisation: '{"html-metric":{}}', metadata: meta([], [{ name: 'revenue', label: 'Revenue this month (GBP)' }, { name: 'orders', label: 'Orders' }], { palette: [[72, 61, 139]] }), rows: revenue.slice(-1) },
  mermaid: { title: 'Pipeline (mermaid)', visualisation: '{"mermaid":{}}', metadata: null, rows: undefined, rawData: 'graph LR\n  A[Extract] --> B[Load]\n  B --> C{Transform}\n  C -->|ok| D[Publish]\n  C -->|fail| E[Alert]' },
  'mermaid-error': { title: 'Broken diagram', visualisation: '{"mermaid":{}}', metadata: null, rows: undefined, rawData: 'graph LR\n  A --> ' },
  carousel: { title: 'Carousel', visualisation: '{"carousel":{}}', metadata: null, rows: [1, 2, 3, 4, 5, 6].map((i) => ({ name: `Picture ${i}`, url: `./img/${i}.svg` })).map((r) => ({ ...r, url: new URL(r.url, window.location.href).pathname })) },
  image: { title: 'Image', visualisation: JSON.stringify({ image: { url: new URL('./img/3.svg', window.location.href).pathname } }), metadata: null, rows: [] },
  handsontable: { title: 'handsontable-table', visualisation: '{"handsontable-table":{}}', metadata: meta([{ name: 'month', label: 'Month' }], [{ name: 'revenue', label: 'Revenue' }]), rows: revenue },
  'error-no-metadata': { title: 'Chart has no metadata', visualisation: chart('bar'), metadata: null, rows: revenue },
  'error-carousel': { title: 'Carousel with wrong rows', visualisation: '{"carousel":{}}', metadata: null, rows: [{ title: 'x', link: 'y' }] },
  'error-malformed': { title: 'Malformed metadata', visualisation: chart('bar'), metadata: '{"related_table":{"columns":{"name":"x"}}}', rows: revenue },
};

const useStyles = makeStyles({
  page: { padding: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, boxSizing: 'border-box', backgroundColor: tokens.colorNeutralBackground2, minHeight: '100vh' },
  card: { backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, boxShadow: tokens.shadow4, padding: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

function Gallery({ name }: { name: string }) {
  const styles = useStyles();
  const item = CASES[name];
  if (!item) return <p>Cases: {Object.keys(CASES).join(', ')}</p>;
  const props: VisualisationProps = {
    dataset: { title: item.title, alias: name, visualisation: item.visualisation, metadata: item.metadata, rawData: item.rawData ?? null, continuousPoll: false },
    rows: item.rows,
    mode: item.mode ?? 'chart',
    datasetHref: (alias) => `#${alias}`,
    compact: item.compact ?? false,
  };
  return (
    <main className={styles.page}>
      <section className={styles.card} style={item.compact ? { maxWidth: 320 } : undefined}>
        <Subtitle1>{item.title}</Subtitle1>
        <Visualisation {...props} />
      </section>
    </main>
  );
}

const name = new URLSearchParams(window.location.search).get('case') ?? '';
createRoot(document.getElementById('root')!).render(
  <FluentProvider theme={lightTheme}>
    <MemoryRouter>
      <Gallery name={name} />
    </MemoryRouter>
  </FluentProvider>,
);

export const CASE_NAMES = Object.keys(CASES);
