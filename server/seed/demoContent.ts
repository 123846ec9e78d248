// The demo's catalogue: realistic enough to browse, search and ask questions of.

export interface DemoDataset {
  channel: string;
  alias: string;
  title: string;
  description: string;
  questions: string;
  tags: string[];
  chartType: 'bar' | 'line' | 'pie' | 'doughnut';
  columns: { name: string; label: string; description: string }[];
  aggregates: { name: string; label: string; description: string }[];
  rows: Record<string, string | number>[];
  /** days before seeding that it was published */
  age: number;
  /**
   * SQL over the tables the demo pipelines load into the default store (tap-demo: customers,
   * orders, web_sessions; tap-files: countries, sales_targets). With a query the data comes from
   * the store and `rows` are not stored.
   */
  query?: string;
}

export const DEMO_CHANNELS = [
  { name: 'Sales', description: 'Revenue, customers and the deals in flight.' },
  { name: 'Marketing', description: 'Campaigns, website traffic and audience growth.' },
  { name: 'Operations', description: 'Orders, fulfilment and customer support.' },
] as const;

const months = ['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06'];

export const DEMO_DATASETS: DemoDataset[] = [
  {
    channel: 'Sales',
    alias: 'sales/monthly-revenue',
    title: 'Monthly Revenue',
    description: 'Total invoiced **revenue** per month across all regions, net of refunds.',
    questions: 'What is our monthly revenue?\nHow did revenue change month over month?',
    tags: ['revenue', 'sales', 'kpi'],
    chartType: 'bar',
    columns: [{ name: 'month', label: 'Month', description: 'Calendar month (YYYY-MM)' }],
    aggregates: [{ name: 'revenue', label: 'Revenue (GBP)', description: 'Invoiced revenue net of refunds' }],
    rows: months.map((month, i) => ({ month, revenue: [120500, 118200, 131900, 140250, 138700, 152300][i] ?? 0 })),
    query: `SELECT to_char(date_trunc('month', ordered_at), 'YYYY-MM') AS month, round(sum(amount)::numeric, 2)::float8 AS revenue
FROM orders
WHERE status NOT IN ('refunded', 'cancelled')
GROUP BY 1
ORDER BY 1`,
    age: 1,
  },
  {
    channel: 'Sales',
    alias: 'top-customers',
    title: 'Top Customers by Revenue',
    description: 'The ten accounts that contributed the most revenue over the last twelve months.',
    questions: 'Who are our biggest customers?\nWhich accounts bring in the most money?',
    tags: ['customers', 'revenue'],
    chartType: 'bar',
    columns: [{ name: 'customer', label: 'Customer', description: 'Account name' }],
    aggregates: [{ name: 'revenue', label: 'Revenue (GBP)', description: 'Revenue over the last twelve months' }],
    rows: [
      { customer: 'Northwind Traders', revenue: 98400 },
      { customer: 'Contoso Ltd', revenue: 87250 },
      { customer: 'Fabrikam Inc', revenue: 66100 },
      { customer: 'Tailspin Toys', revenue: 51800 },
      { customer: 'Wide World Importers', revenue: 47300 },
    ],
    query: `SELECT c.name AS customer, round(sum(o.amount)::numeric, 2)::float8 AS revenue
FROM orders o
JOIN customers c ON c.id = o.customer_id
WHERE o.status NOT IN ('refunded', 'cancelled')
GROUP BY c.name
ORDER BY revenue DESC
LIMIT 10`,
    age: 3,
  },
  {
    channel: 'Sales',
    alias: 'sales-pipeline',
    title: 'Sales Pipeline by Stage',
    description: 'Open deals grouped by stage, with their combined value.',
    questions: 'How many deals are in each stage?\nWhat is the value of our open pipeline?',
    tags: ['deals', 'forecast'],
    chartType: 'doughnut',
    columns: [{ name: 'stage', label: 'Stage', description: 'Deal stage in the CRM' }],
    aggregates: [{ name: 'deals', label: 'Deals', description: 'Number of open deals' }],
    rows: [
      { stage: 'Qualified', deals: 42 },
      { stage: 'Proposal', deals: 18 },
      { stage: 'Negotiation', deals: 9 },
      { stage: 'Closing', deals: 4 },
    ],
    age: 5,
  },
  {
    channel: 'Marketing',
    alias: 'marketing/website-sessions',
    title: 'Website Sessions by Channel',
    description: 'Where visitors to the website come from: organic search, paid ads, social and direct.',
    questions: 'Where do our website visitors come from?\nHow much traffic comes from social media?',
    tags: ['traffic', 'acquisition', 'web'],
    chartType: 'pie',
    columns: [{ name: 'source', label: 'Source', description: 'Acquisition channel' }],
    aggregates: [{ name: 'sessions', label: 'Sessions', description: 'Sessions in the last 30 days' }],
    rows: [
      { source: 'Organic search', sessions: 18250 },
      { source: 'Paid ads', sessions: 7400 },
      { source: 'Social', sessions: 5100 },
      { source: 'Direct', sessions: 4300 },
    ],
    query: `SELECT source, count(*)::int AS sessions
FROM web_sessions
GROUP BY source
ORDER BY sessions DESC`,
    age: 2,
  },
  {
    channel: 'Marketing',
    alias: 'campaign-conversions',
    title: 'Campaign Conversion Rates',
    description: 'Share of campaign clicks that became sign-ups, per campaign this quarter.',
    questions: 'Which campaigns convert best?\nWhat is the conversion rate of the spring campaign?',
    tags: ['campaigns', 'conversion'],
    chartType: 'bar',
    columns: [{ name: 'campaign', label: 'Campaign', description: 'Campaign name' }],
    aggregates: [{ name: 'conversion_rate', label: 'Conversion rate (%)', description: 'Sign-ups per hundred clicks' }],
    rows: [
      { campaign: 'Spring launch', conversion_rate: 4.8 },
      { campaign: 'Webinar series', conversion_rate: 6.1 },
      { campaign: 'Retargeting', conversion_rate: 3.2 },
    ],
    age: 8,
  },
  {
    channel: 'Marketing',
    alias: 'newsletter-growth',
    title: 'Newsletter Subscribers',
    description: 'Subscribers to the monthly newsletter at the end of each month.',
    questions: 'How fast is our newsletter list growing?\nHow many people subscribe to the newsletter?',
    tags: ['email', 'growth'],
    chartType: 'line',
    columns: [{ name: 'month', label: 'Month', description: 'Calendar month (YYYY-MM)' }],
    aggregates: [{ name: 'subscribers', label: 'Subscribers', description: 'Subscribers at month end' }],
    rows: months.map((month, i) => ({ month, subscribers: 2400 + i * 310 })),
    age: 12,
  },
  {
    channel: 'Operations',
    alias: 'operations/fulfilment-time',
    title: 'Order Fulfilment Time',
    description: 'Average hours from order placed to parcel shipped, per month.',
    questions: 'How long does it take to ship an order?\nAre orders shipped faster than last quarter?',
    tags: ['orders', 'logistics'],
    chartType: 'line',
    columns: [{ name: 'month', label: 'Month', description: 'Calendar month (YYYY-MM)' }],
    aggregates: [{ name: 'hours', label: 'Hours to ship', description: 'Mean hours from order to dispatch' }],
    rows: months.map((month, i) => ({ month, hours: [30.5, 28.1, 26.4, 27.9, 24.2, 22.8][i] ?? 0 })),
    age: 4,
  },
  {
    channel: 'Operations',
    alias: 'support-tickets',
    title: 'Support Tickets by Priority',
    description: 'Open customer support tickets grouped by priority.',
    questions: 'How many support tickets are open?\nHow many urgent tickets do we have?',
    tags: ['support', 'tickets'],
    chartType: 'bar',
    columns: [{ name: 'priority', label: 'Priority', description: 'Ticket priority' }],
    aggregates: [{ name: 'tickets', label: 'Open tickets', description: 'Tickets not yet resolved' }],
    rows: [
      { priority: 'Urgent', tickets: 3 },
      { priority: 'High', tickets: 11 },
      { priority: 'Normal', tickets: 37 },
      { priority: 'Low', tickets: 15 },
    ],
    age: 6,
  },
];

export const SANDBOX_DATASETS: DemoDataset[] = [
  {
    channel: 'Experiments',
    alias: 'ab-test-results',
    title: 'A/B Test Results',
    description: 'Conversion of the checkout page variants tested this month.',
    questions: 'Which checkout variant won the A/B test?',
    tags: ['experiments', 'checkout'],
    chartType: 'bar',
    columns: [{ name: 'variant', label: 'Variant', description: 'Checkout page variant' }],
    aggregates: [{ name: 'conversion_rate', label: 'Conversion rate (%)', description: 'Orders per hundred visits' }],
    rows: [
      { variant: 'A (current)', conversion_rate: 2.9 },
      { variant: 'B (one-page)', conversion_rate: 3.4 },
    ],
    age: 2,
  },
];

/** The visualisation and metadata JSON the dataset page renders (chart type, columns, aggregates). */
export function datasetJson(dataset: DemoDataset): { visualisation: string; metadata: string; rawData: string | null } {
  return {
    visualisation: JSON.stringify({ 'chartjs-chart': { chartType: dataset.chartType } }),
    metadata: JSON.stringify({
      name: dataset.alias,
      label: dataset.title,
      related_table: { columns: dataset.columns, aggregates: dataset.aggregates },
    }),
    rawData: dataset.query === undefined ? JSON.stringify(dataset.rows) : null,
  };
}
