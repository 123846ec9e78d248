// Our own datasets shaped as Matatika's published DatasetML examples (matatika-docs
// content/dataml/datasetml.md, datasetml/basic-examples.md and datasetml/advanced-examples.md):
// the same visualisation and metadata shape, options and row keys, with our own subjects and
// numbers. The unit tests draw each as a chart model; the e2e spec publishes each and reads it
// back on the dataset page. Matatika publishes no bubble example: ours follows its scatter.

export interface ExampleSeries {
  readonly label: string;
  readonly values: readonly (number | null)[];
}

export interface MatatikaExample {
  /** a short key: the e2e alias and the screenshot names */
  readonly key: string;
  /** which of Matatika's examples it follows */
  readonly follows: string;
  readonly title: string;
  readonly visualisation: string;
  readonly metadata: string;
  /** rawData rows, as the examples give them (null: the dataset has a query) */
  readonly rows: readonly Record<string, unknown>[];
  /** a query over the store, as the DatasetML page's own example has (its answer is `rows`) */
  readonly query?: string;
  readonly expected: {
    /** our chart type, and chart.js's */
    readonly chartType: string;
    readonly chartJsType: string;
    /** category labels (slice labels for a pie or doughnut) */
    readonly labels: readonly string[];
    readonly series: readonly ExampleSeries[];
    readonly stacked: boolean;
    /** headers the page's table view shows for the rows */
    readonly tableHeaders: readonly string[];
  };
}

const meta = (name: string, columns: readonly [string, string][], aggregates: readonly [string, string][]): string =>
  JSON.stringify({
    name,
    related_table: {
      columns: columns.map(([column, label]) => ({ name: column, label, description: label })),
      aggregates: aggregates.map(([aggregate, label]) => ({ name: aggregate, label, description: label })),
    },
  }, null, 2);

const RIVERS = [
  { 'river.name': 'Thames', 'river.length_km': 346, 'river.catchment_kkm2': 12.9 },
  { 'river.name': 'Severn', 'river.length_km': 354, 'river.catchment_kkm2': 11.4 },
  { 'river.name': 'Trent', 'river.length_km': 298, 'river.catchment_kkm2': 10.4 },
  { 'river.name': 'Wye', 'river.length_km': 250, 'river.catchment_kkm2': 4.1 },
];
const RIVER_NAMES = ['Thames', 'Severn', 'Trent', 'Wye'];
const LENGTH: ExampleSeries = { label: 'Length (km)', values: [346, 354, 298, 250] };
const CATCHMENT: ExampleSeries = { label: 'Catchment (1,000 km²)', values: [12.9, 11.4, 10.4, 4.1] };

const BAKERIES = [
  { 'bakery.name': 'Northgate', 'bakery.loaves': 420, 'bakery.cakes': 180, 'bakery.orders': 96 },
  { 'bakery.name': 'Riverside', 'bakery.loaves': 310, 'bakery.cakes': 260, 'bakery.orders': 130 },
  { 'bakery.name': 'Old Market', 'bakery.loaves': 505, 'bakery.cakes': 140, 'bakery.orders': 74 },
  { 'bakery.name': 'Station Road', 'bakery.loaves': 275, 'bakery.cakes': 215, 'bakery.orders': 118 },
  { 'bakery.name': 'Hillside', 'bakery.loaves': 390, 'bakery.cakes': 120, 'bakery.orders': 52 },
];
const BAKERY_NAMES = BAKERIES.map((row) => row['bakery.name']);

const chartjs = (chartType: string, options?: unknown): string => JSON.stringify({ 'chartjs-chart': options === undefined ? { chartType } : { chartType, options } }, null, 2);

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const capital = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
const SWIMS = [640, 585, 610, 598, 702, 890, 815];

export const MATATIKA_EXAMPLES: readonly MatatikaExample[] = [
  {
    key: 'daily-users',
    follows: 'DatasetML: Google Analytics Daily Users (a query grouped by day)',
    title: 'Example Daily Library Visits',
    visualisation: '{"chartjs-chart": {"chartType": "bar"}}',
    metadata: JSON.stringify({ name: 'library_visits', label: 'Daily Visits', related_table: { columns: [{ name: 'visit_date', label: 'Date', description: 'Date' }], aggregates: [{ name: 'total_visits', label: 'Total Visits', description: 'Total Visits' }] } }, null, 2),
    query: `SELECT visit_date "library_visits.visit_date", sum(visits)::int "library_visits.total_visits"
FROM (VALUES ('2024-03-04', 120), ('2024-03-04', 35), ('2024-03-05', 142), ('2024-03-06', 98), ('2024-03-06', 40)) AS library_visits(visit_date, visits)
GROUP BY visit_date
ORDER BY visit_date`,
    rows: [
      { 'library_visits.visit_date': '2024-03-04', 'library_visits.total_visits': 155 },
      { 'library_visits.visit_date': '2024-03-05', 'library_visits.total_visits': 142 },
      { 'library_visits.visit_date': '2024-03-06', 'library_visits.total_visits': 138 },
    ],
    expected: { chartType: 'bar', chartJsType: 'bar', labels: ['2024-03-04', '2024-03-05', '2024-03-06'], series: [{ label: 'Total Visits', values: [155, 142, 138] }], stacked: false, tableHeaders: ['Date', 'Total Visits'] },
  },
  {
    key: 'basic-bar',
    follows: 'Basic Bar Chart (planet orbit durations)',
    title: 'Example River Lengths',
    visualisation: chartjs('bar'),
    metadata: meta('river', [['name', 'River']], [['length_km', 'Length (km)']]),
    rows: RIVERS.map((row) => ({ 'river.name': row['river.name'], 'river.length_km': row['river.length_km'] })),
    expected: { chartType: 'bar', chartJsType: 'bar', labels: RIVER_NAMES, series: [LENGTH], stacked: false, tableHeaders: ['River', 'Length (km)'] },
  },
  {
    key: 'grouped-bar',
    follows: 'Grouped Bar Chart (two aggregates per planet)',
    title: 'Example River Lengths and Catchments',
    visualisation: chartjs('bar'),
    metadata: meta('river', [['name', 'River']], [['length_km', 'Length (km)'], ['catchment_kkm2', 'Catchment (1,000 km²)']]),
    rows: RIVERS,
    expected: { chartType: 'bar', chartJsType: 'bar', labels: RIVER_NAMES, series: [LENGTH, CATCHMENT], stacked: false, tableHeaders: ['River', 'Length (km)', 'Catchment (1,000 km²)'] },
  },
  {
    key: 'stacked-bar',
    follows: 'Stacked Bar Chart (options.scales.x.stacked)',
    title: 'Example Stacked River Figures',
    visualisation: chartjs('bar', { scales: { x: { stacked: true } } }),
    metadata: meta('river', [['name', 'River']], [['length_km', 'Length (km)'], ['catchment_kkm2', 'Catchment (1,000 km²)']]),
    rows: RIVERS,
    expected: { chartType: 'bar', chartJsType: 'bar', labels: RIVER_NAMES, series: [LENGTH, CATCHMENT], stacked: true, tableHeaders: ['River', 'Length (km)', 'Catchment (1,000 km²)'] },
  },
  {
    key: 'doughnut',
    follows: 'Doughnut Chart (one row, two aggregates, no columns)',
    title: 'Example Cafe Visitors and Orders',
    visualisation: chartjs('doughnut'),
    metadata: meta('cafe', [], [['visitors', 'Visitors'], ['orders', 'Orders']]),
    rows: [{ 'cafe.visitors': 830, 'cafe.orders': 610 }],
    expected: { chartType: 'doughnut', chartJsType: 'doughnut', labels: ['Visitors', 'Orders'], series: [{ label: '1', values: [830, 610] }], stacked: false, tableHeaders: ['Visitors', 'Orders'] },
  },
  {
    // Matatika's 'Pie Chart' example asks for chartType doughnut: so does ours
    key: 'pie',
    follows: 'Pie Chart (one row, an aggregate per weekday)',
    title: 'Example Pool Swims This Week',
    visualisation: chartjs('doughnut'),
    metadata: meta('pool', [], WEEKDAYS.map((day) => [`swims_${day}`, `${capital(day)} Swims`] as [string, string])),
    rows: [Object.fromEntries(WEEKDAYS.map((day, i) => [`pool.swims_${day}`, SWIMS[i]]))],
    expected: { chartType: 'doughnut', chartJsType: 'doughnut', labels: WEEKDAYS.map((day) => `${capital(day)} Swims`), series: [{ label: '1', values: SWIMS }], stacked: false, tableHeaders: WEEKDAYS.map((day) => `${capital(day)} Swims`) },
  },
  {
    key: 'line',
    follows: 'Line Chart (shops, visitors and sales)',
    title: 'Example Bakery Loaves and Cakes',
    visualisation: chartjs('line'),
    metadata: meta('bakery', [['name', 'Bakery']], [['loaves', 'Loaves'], ['cakes', 'Cakes']]),
    rows: BAKERIES.map(({ 'bakery.orders': _orders, ...row }) => row),
    expected: {
      chartType: 'line', chartJsType: 'line', labels: BAKERY_NAMES, stacked: false, tableHeaders: ['Bakery', 'Loaves', 'Cakes'],
      series: [{ label: 'Loaves', values: [420, 310, 505, 275, 390] }, { label: 'Cakes', values: [180, 260, 140, 215, 120] }],
    },
  },
  {
    // the column is a number (the x axis), and the rows carry a name the metadata does not chart
    key: 'labeled-axis',
    follows: 'Advanced: Labeled Axis (scales.x.title and scales.y.title)',
    title: 'Example Labeled Cakes Against Loaves',
    visualisation: chartjs('line', { scales: { y: { title: { display: true, text: 'Number of Cakes' } }, x: { title: { display: true, text: 'Number of Loaves' } } } }),
    metadata: meta('bakery', [['loaves', 'Loaves']], [['cakes', 'Cakes']]),
    rows: BAKERIES.map(({ 'bakery.orders': _orders, ...row }) => row),
    expected: { chartType: 'line', chartJsType: 'line', labels: ['420', '310', '505', '275', '390'], series: [{ label: 'Cakes', values: [180, 260, 140, 215, 120] }], stacked: false, tableHeaders: ['bakery.name', 'Loaves', 'Cakes'] },
  },
  {
    key: 'max-scale',
    follows: 'Advanced: Max Axis Scale (scales.y.max)',
    title: 'Example Bakery Waste Against Target',
    visualisation: chartjs('line', { scales: { y: { max: 100 } } }),
    metadata: meta('bakery', [['name', 'Bakery']], [['sold_target_percent', 'Sold Target %'], ['sold_percent', 'Sold %']]),
    rows: BAKERY_NAMES.map((name, i) => ({ 'bakery.name': name, 'bakery.sold_target_percent': 90, 'bakery.sold_percent': [86, 93, 78, 95, 88][i] })),
    expected: {
      chartType: 'line', chartJsType: 'line', labels: BAKERY_NAMES, stacked: false, tableHeaders: ['Bakery', 'Sold Target %', 'Sold %'],
      series: [{ label: 'Sold Target %', values: [90, 90, 90, 90, 90] }, { label: 'Sold %', values: [86, 93, 78, 95, 88] }],
    },
  },
  {
    key: 'start-at-0',
    follows: 'Advanced: Scale Start At 0 (scales.y.beginAtZero)',
    title: 'Example Bakery Loaves and Cakes From Zero',
    visualisation: chartjs('line', { scales: { y: { beginAtZero: true } } }),
    metadata: meta('bakery', [['name', 'Bakery']], [['loaves', 'Loaves'], ['cakes', 'Cakes']]),
    rows: BAKERIES.map(({ 'bakery.orders': _orders, ...row }) => row),
    expected: {
      chartType: 'line', chartJsType: 'line', labels: BAKERY_NAMES, stacked: false, tableHeaders: ['Bakery', 'Loaves', 'Cakes'],
      series: [{ label: 'Loaves', values: [420, 310, 505, 275, 390] }, { label: 'Cakes', values: [180, 260, 140, 215, 120] }],
    },
  },
  {
    key: 'tick-scaling',
    follows: 'Advanced: Tick Scaling (scales.y.beginAtZero and ticks.stepSize)',
    title: 'Example Weekly Flour Deliveries',
    visualisation: chartjs('bar', { scales: { y: { beginAtZero: true, ticks: { stepSize: 1 } } } }),
    metadata: meta('bakery', [['name', 'Bakery']], [['flour_deliveries', 'Flour Deliveries']]),
    rows: [{ 'bakery.name': 'Northgate', 'bakery.flour_deliveries': 2 }, { 'bakery.name': 'Riverside', 'bakery.flour_deliveries': 3 }, { 'bakery.name': 'Old Market', 'bakery.flour_deliveries': 1 }],
    expected: { chartType: 'bar', chartJsType: 'bar', labels: ['Northgate', 'Riverside', 'Old Market'], series: [{ label: 'Flour Deliveries', values: [2, 3, 1] }], stacked: false, tableHeaders: ['Bakery', 'Flour Deliveries'] },
  },
  {
    // no Matatika example: x is the column as in the labeled-axis example, the last aggregate sizes
    key: 'bubble',
    follows: 'Bubble (chartType bubble has no published example: shaped as the scatter)',
    title: 'Example Bakery Loaves, Cakes and Orders',
    visualisation: chartjs('bubble', { scales: { x: { title: { display: true, text: 'Loaves' } } } }),
    metadata: meta('bakery', [['loaves', 'Loaves']], [['cakes', 'Cakes'], ['orders', 'Orders']]),
    rows: BAKERIES,
    expected: { chartType: 'bubble', chartJsType: 'bubble', labels: ['420', '310', '505', '275', '390'], series: [{ label: 'Cakes', values: [180, 260, 140, 215, 120] }], stacked: false, tableHeaders: ['bakery.name', 'Loaves', 'Cakes', 'Orders'] },
  },
];
