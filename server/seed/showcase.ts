// One demo dataset per visualisation kind and chart type the dataset page renders (spec 002 §3),
// most of them reading the tables the demo pipelines load. Pictures are data: URLs, so the demo
// fetches nothing from a third-party host.

export interface ShowcaseDataset {
  channel: string;
  alias: string;
  title: string;
  description: string;
  tags: string[];
  visualisation: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  query?: string;
  /** JSON text of rows, or a diagram's text (mermaid) */
  rawData?: string;
  continuousPoll?: boolean;
  age: number;
}

const column = (name: string, label: string, description = label) => ({ name, label, description });
const related = (name: string, label: string, columns: ReturnType<typeof column>[], aggregates: ReturnType<typeof column>[]) => ({
  name,
  label,
  related_table: { columns, aggregates },
});

/** A small picture as an SVG data URL: a coloured card with a caption. */
/**
 * A picture the app serves itself (public/demo/): a site path is what an image or a carousel may
 * show (links.ts refuses data: URLs), and an offline install reaches no other host.
 */
const picture = (name: string): string => `/demo/${name}.svg`;

export const DEMO_SHOWCASE: ShowcaseDataset[] = [
  {
    channel: 'Sales',
    alias: 'sales/orders-by-country',
    title: 'Orders by Country',
    description: 'Orders per customer country, joining the demo orders with the reference #countries file.',
    tags: ['orders', 'countries'],
    visualisation: { 'chartjs-chart': { chartType: 'horizontalBar' } },
    metadata: related('orders-by-country', 'Orders by Country', [column('country', 'Country')], [column('orders', 'Orders')]),
    query: `SELECT co.name AS country, count(*)::int AS orders
FROM orders o
JOIN customers c ON c.id = o.customer_id
JOIN countries co ON co.code = c.country
GROUP BY co.name
ORDER BY orders DESC`,
    age: 1.5,
  },
  {
    channel: 'Sales',
    alias: 'sales/targets-vs-actuals',
    title: 'Revenue Targets vs Actuals',
    description: 'Monthly revenue against the targets in the `sales_targets` file, for each whole month the demo shop has orders.',
    tags: ['targets', 'sales'],
    visualisation: { 'chartjs-chart': { chartType: 'area' } },
    metadata: related('targets-vs-actuals', 'Targets vs Actuals', [column('month', 'Month')], [column('target', 'Target (GBP)'), column('actual', 'Actual (GBP)')]),
    // Only whole months with orders (issue 38): the demo's orders are its last 90 days, so the
    // targets' other months would read as zero actuals, and the first and the running month as a
    // shortfall. The first whole month starts after the day before the first order.
    query: `SELECT t.month, t.target_revenue_gbp::float8 AS target, a.revenue::float8 AS actual
FROM sales_targets t
JOIN (
  SELECT to_char(ordered_at, 'YYYY-MM') AS month, round(sum(amount)::numeric, 2) AS revenue
  FROM orders
  WHERE status NOT IN ('refunded', 'cancelled')
    AND ordered_at >= (SELECT date_trunc('month', min(ordered_at) - interval '1 day') + interval '1 month' FROM orders)
    AND ordered_at < date_trunc('month', now())
  GROUP BY 1
) a ON a.month = t.month::text
ORDER BY t.month`,
    age: 2.5,
  },
  {
    channel: 'Operations',
    alias: 'operations/order-status',
    title: 'Orders by Status',
    description: 'How many orders are in each status, and what they are worth.',
    tags: ['orders', 'operations'],
    visualisation: { 'html-table': {} },
    metadata: related('order-status', 'Orders by Status', [column('status', 'Status')], [column('orders', 'Orders'), column('value', 'Value')]),
    query: `SELECT status, count(*)::int AS orders, round(sum(amount)::numeric, 2)::float8 AS value
FROM orders
GROUP BY status
ORDER BY orders DESC`,
    age: 2.6,
  },
  {
    channel: 'Operations',
    alias: 'operations/orders-total',
    title: 'Orders to Date',
    description: 'The number of orders the demo shop has taken.',
    tags: ['orders', 'metric'],
    visualisation: { 'html-metric': {} },
    metadata: { ...related('orders-total', 'Orders to Date', [], [column('orders', 'Orders')]), palette: [[15, 108, 189]] },
    query: 'SELECT count(*)::int AS orders FROM orders',
    continuousPoll: true,
    age: 3.5,
  },
  {
    channel: 'Operations',
    alias: 'operations/recent-orders',
    title: 'Recent Orders',
    description: 'The latest two hundred orders, newest first.',
    tags: ['orders'],
    visualisation: { 'handsontable-table': {} },
    metadata: related(
      'recent-orders',
      'Recent Orders',
      [column('id', 'Order'), column('status', 'Status'), column('currency', 'Currency'), column('ordered_at', 'Ordered')],
      [column('items', 'Items'), column('amount', 'Amount')],
    ),
    query: `SELECT id, status, currency, items, amount, ordered_at
FROM orders
ORDER BY ordered_at DESC
LIMIT 200`,
    age: 4.5,
  },
  {
    channel: 'Marketing',
    alias: 'marketing/session-depth',
    title: 'Session Depth vs Duration',
    description: 'Pages viewed against seconds spent, a point per web session.',
    tags: ['web', 'sessions'],
    visualisation: { 'chartjs-chart': { chartType: 'scatter' } },
    metadata: related('session-depth', 'Session Depth', [column('pages', 'Pages')], [column('duration_seconds', 'Duration (s)')]),
    query: `SELECT pages, duration_seconds
FROM web_sessions
ORDER BY started_at DESC
LIMIT 300`,
    age: 4.6,
  },
  {
    channel: 'Sales',
    alias: 'sales/customer-segments',
    title: 'Customers by Segment',
    description: 'How the customer base splits by #segment.',
    tags: ['customers', 'segment'],
    visualisation: { 'chartjs-chart': { chartType: 'treemap' } },
    metadata: related('customer-segments', 'Customers by Segment', [column('segment', 'Segment')], [column('customers', 'Customers')]),
    query: `SELECT segment, count(*)::int AS customers
FROM customers
GROUP BY segment
ORDER BY customers DESC`,
    age: 5.5,
  },
  {
    channel: 'Marketing',
    alias: 'marketing/sessions-by-device',
    title: 'Monthly Sessions by Device',
    description: 'Web sessions per month, as a Google-style column chart drawn with the built-in charts.',
    tags: ['web', 'sessions'],
    visualisation: { 'google-chart': { chartType: 'ColumnChart', options: { title: 'Sessions by device', isStacked: true } } },
    metadata: related('sessions-by-device', 'Sessions by Device', [column('month', 'Month')], [column('desktop', 'Desktop'), column('mobile', 'Mobile'), column('tablet', 'Tablet')]),
    query: `SELECT to_char(date_trunc('month', started_at), 'YYYY-MM') AS month,
  count(*) FILTER (WHERE device = 'desktop')::int AS desktop,
  count(*) FILTER (WHERE device = 'mobile')::int AS mobile,
  count(*) FILTER (WHERE device = 'tablet')::int AS tablet
FROM web_sessions
GROUP BY 1
ORDER BY 1`,
    age: 5.6,
  },
  {
    channel: 'Operations',
    alias: 'operations/data-flow',
    title: 'How the Demo Data Flows',
    description: 'Where the data behind these datasets comes from: the two demo pipelines and the default store.',
    tags: ['pipelines', 'help'],
    visualisation: { mermaid: {} },
    rawData: [
      // the streams sit in the nodes: long edge labels are drawn over their arrows
      'flowchart LR',
      '  demo["tap-demo<br/>customers, orders, web_sessions"] --> store[(Default store)]',
      '  files["tap-files<br/>countries, sales_targets"] --> store',
      '  store --> datasets[Datasets]',
    ].join('\n'),
    age: 6.5,
  },
  {
    channel: 'Marketing',
    alias: 'marketing/campaign-gallery',
    title: 'Campaign Gallery',
    description: 'The creative of this quarter’s campaigns.',
    tags: ['campaigns'],
    visualisation: { carousel: {} },
    metadata: related('campaign-gallery', 'Campaign Gallery', [column('name', 'Name'), column('url', 'Picture')], []),
    rawData: JSON.stringify([
      { name: 'Spring sale', url: picture('spring-sale') },
      { name: 'Summer launch', url: picture('summer-launch') },
      { name: 'Autumn webinar', url: picture('autumn-webinar') },
      { name: 'Winter gifts', url: picture('winter-gifts') },
    ]),
    age: 7.5,
  },
  {
    channel: 'Marketing',
    alias: 'marketing/brand-card',
    title: 'Brand Card',
    description: 'The card the newsletter opens with.',
    tags: ['campaigns', 'brand'],
    visualisation: { image: {} },
    rawData: JSON.stringify([{ name: 'Brand card', url: picture('brand-card') }]),
    age: 8.5,
  },
];

/** The owner's demo list: a few datasets worth keeping together. */
export const DEMO_LIST = {
  name: 'Weekly review',
  description: 'What the owner looks at every Monday.',
  aliases: ['sales/monthly-revenue', 'sales/targets-vs-actuals', 'operations/order-status'],
} as const;
