// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ChartJs from 'chart.js';
import type { ChartConfiguration } from 'chart.js';
import {
  CHART_HAS_NO_METADATA, LINK_EXPECTED_HREF, METADATA_NOT_WELL_FORMED, METADATA_UNPARSEABLE, NO_DATA_TO_DISPLAY, NOTHING_HERE, ROW_DATA_NONCONFORMING,
} from '../../../domain/visualisation/messages';
import { CHART_FAILED } from './ChartJsChart';
import { Visualisation, type VisualisationProps } from './Visualisation';

// chart.js is asserted through the configuration it is given: the Chart constructor is replaced.
const charts = vi.hoisted(() => ({ made: [] as { config: ChartConfiguration; destroyed: boolean; updates: number }[], registered: [] as unknown[] }));
vi.mock('chart.js', async (importOriginal) => {
  const actual = await importOriginal<typeof ChartJs>();
  class FakeChart {
    static register(...items: unknown[]) {
      charts.registered.push(...items);
    }
    record: { config: ChartConfiguration; destroyed: boolean; updates: number };
    data: unknown;
    options: unknown;
    constructor(_canvas: unknown, config: ChartConfiguration) {
      // stands for chart.js refusing a configuration (e.g. an unregistered scale type in the dataset's options)
      if ((config.options as { refuse?: boolean } | undefined)?.refuse) throw new Error('"radial" is not a registered scale.');
      this.record = { config, destroyed: false, updates: 0 };
      this.data = config.data;
      this.options = config.options;
      charts.made.push(this.record);
    }
    get config() {
      return this.record.config;
    }
    update() {
      this.record.updates += 1;
    }
    destroy() {
      this.record.destroyed = true;
    }
  }
  return { ...actual, Chart: FakeChart };
});

const mermaidApi = vi.hoisted(() => ({ initialize: vi.fn(), render: vi.fn() }));
vi.mock('mermaid', () => ({ default: mermaidApi }));

vi.mock('@handsontable/react-wrapper', () => ({
  HotTable: (props: { data: string[][]; colHeaders: string[]; licenseKey: string; readOnly: boolean }) => (
    <div data-testid="hot" data-license={props.licenseKey} data-readonly={String(props.readOnly)}>{JSON.stringify([props.colHeaders, ...props.data])}</div>
  ),
}));
vi.mock('handsontable/cellTypes', () => ({ registerCellType: vi.fn(), TextCellType: {} }));
vi.mock('handsontable/plugins', () => ({ registerPlugin: vi.fn(), AutoColumnSize: {}, ManualColumnResize: {} }));

const runtime = vi.hoisted(() => ({ licenseKey: null as string | null }));
vi.mock('../../runtime', () => ({ useOptionalRuntime: () => ({ config: { handsontableLicenseKey: runtime.licenseKey } }) }));

const META = JSON.stringify({ name: 'sales', related_table: { columns: [{ name: 'month', label: 'Month' }], aggregates: [{ name: 'revenue', label: 'Revenue' }] } });
const ROWS = [{ month: '2024-01', revenue: 10 }, { month: '2024-02', revenue: 20 }];

function Location() {
  return <span data-testid="location">{useLocation().pathname}</span>;
}

function show(overrides: Partial<VisualisationProps> & { visualisation?: string | null; metadata?: string | null; rawData?: string | null; continuousPoll?: boolean } = {}) {
  const { visualisation = null, metadata = META, rawData = null, continuousPoll = false, ...props } = overrides;
  const all: VisualisationProps = {
    dataset: { title: 'Monthly revenue', alias: 'sales/monthly', visualisation, metadata, rawData, continuousPoll },
    rows: ROWS,
    mode: 'chart',
    datasetHref: (alias) => `/l/w1/dataset/${alias}`,
    ...props,
  };
  return render(
    <MemoryRouter initialEntries={['/l/w1/dataset/sales/monthly']}>
      <Routes>
        <Route path="*" element={<><Visualisation {...all} /><Location /></>} />
      </Routes>
    </MemoryRouter>,
  );
}

const chartJs = (chartType: string, options: object = {}) => JSON.stringify({ 'chartjs-chart': { chartType, options } });
const lastChart = async () => {
  await waitFor(() => expect(charts.made.length).toBeGreaterThan(0));
  return charts.made.at(-1)!.config;
};

beforeEach(() => {
  charts.made.length = 0;
  charts.registered.length = 0;
  mermaidApi.initialize.mockReset();
  mermaidApi.render.mockReset();
  runtime.licenseKey = null;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Visualisation: tables', () => {
  const many = Array.from({ length: 25 }, (_, i) => ({ month: `m${i}`, revenue: i }));

  it('html-table shows 10 rows and says how many there are', () => {
    show({ visualisation: '{"html-table":{}}', rows: many });
    expect(screen.getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('(showing 10 of 25 rows)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Month' })).toBeTruthy();
  });

  it("table mode shows any dataset's rows 10 at a time with Show more", () => {
    show({ visualisation: chartJs('bar'), rows: many, mode: 'table' });
    expect(screen.getAllByRole('row')).toHaveLength(11);
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getAllByRole('row')).toHaveLength(21);
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getAllByRole('row')).toHaveLength(26);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(charts.made).toHaveLength(0);
  });

  it('a dataset without a visualisation shows its rows; while loading a spinner; 204 says no data', () => {
    const { unmount } = show({ rows: undefined });
    expect(screen.getByText('Loading data')).toBeTruthy();
    unmount();
    show({ rows: [], mode: 'table' });
    expect(screen.getByText(NO_DATA_TO_DISPLAY)).toBeTruthy();
  });

  it('handsontable-table draws a read-only grid with the configured key', async () => {
    runtime.licenseKey = 'key-123';
    show({ visualisation: '{"handsontable-table":{}}' });
    const grid = await screen.findByTestId('hot');
    expect(grid.dataset.license).toBe('key-123');
    expect(grid.dataset.readonly).toBe('true');
    expect(JSON.parse(grid.textContent ?? '')).toEqual([['Month', 'Revenue'], ['2024-01', '10'], ['2024-02', '20']]);
  });

  it("handsontable-table without a key is the html-table, with no word of the server's settings to a reader", () => {
    show({ visualisation: '{"handsontable-table":{}}' });
    expect(screen.queryByText(/HANDSONTABLE_LICENSE_KEY|licen[cs]e key/i)).toBeNull();
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByTestId('hot')).toBeNull();
  });
});

describe('Visualisation: charts', () => {
  it('draws a bar chart through chart.js with labels and one dataset per aggregate', async () => {
    show({ visualisation: chartJs('bar') });
    const config = await lastChart();
    expect(config.type).toBe('bar');
    expect(config.data.labels).toEqual(['2024-01', '2024-02']);
    expect(config.data.datasets.map((d) => [d.label, d.data])).toEqual([['Revenue', [10, 20]]]);
    expect(config.options?.indexAxis).toBe('x');
    expect(screen.getByRole('img', { name: 'Monthly revenue' })).toBeTruthy();
  });

  it.each([
    ['horizontalBar', 'bar', { indexAxis: 'y' }],
    ['line', 'line', {}],
    ['scatter', 'scatter', {}],
    ['pie', 'pie', {}],
    ['doughnut', 'doughnut', {}],
  ])('%s is drawn as chart.js %s', async (chartType, type, options) => {
    show({ visualisation: chartJs(chartType) });
    const config = await lastChart();
    expect(config.type).toBe(type);
    expect(config.options).toMatchObject(options);
  });

  it('horizontalBar puts categories on y and the values on x axes', async () => {
    show({ visualisation: chartJs('horizontalBar') });
    const config = await lastChart();
    const scales = config.options?.scales as Record<string, { type: string }>;
    expect(scales.y?.type).toBe('category');
    expect(scales.x?.type).toBe('linear');
    expect(config.data.datasets[0]).toMatchObject({ xAxisID: 'x' });
  });

  it('long category labels are cut to what the chart has room for, full text in the tooltip', async () => {
    const long = 'A customer with a very long trading name that goes on and on and on Ltd';
    show({ visualisation: chartJs('bar'), rows: [{ month: long, revenue: 1 }] });
    const config = await lastChart();
    const scales = config.options?.scales as Record<string, { ticks: { callback: (this: unknown, value: number) => string } }>;
    const scale = { axis: 'x', chart: { width: 375, height: 360 }, getLabelForValue: (i: number) => (config.data.labels as string[])[i] ?? '' };
    const tick = scales.x!.ticks.callback.call(scale, 0);
    expect(Array.from(tick).length).toBeLessThan(long.length);
    expect(tick.endsWith('…')).toBe(true);
    const title = (config.options?.plugins?.tooltip?.callbacks as { title: (items: { dataIndex: number }[]) => string }).title;
    expect(title([{ dataIndex: 0 }])).toBe(long);
  });

  it('area is a filled line', async () => {
    show({ visualisation: chartJs('area') });
    const config = await lastChart();
    expect(config.type).toBe('line');
    expect(config.data.datasets[0]).toMatchObject({ fill: 'origin' });
  });

  it('treemap loads and registers the treemap plugin and hides small tiles\' labels', async () => {
    show({ visualisation: chartJs('treemap'), rows: [{ month: 'big', revenue: 90 }, { month: 'small', revenue: 10 }] });
    const config = await lastChart();
    expect(config.type).toBe('treemap');
    expect(charts.registered.some((item) => (item as { id?: string }).id === 'treemap')).toBe(true);
    const dataset = config.data.datasets[0] as unknown as { tree: { label: string; showLabel: boolean }[]; labels: { color: (ctx: { raw: unknown }) => string } };
    expect(dataset.tree.map((leaf) => [leaf.label, leaf.showLabel])).toEqual([['big', true], ['small', false]]);
    expect(dataset.labels.color({ raw: { _data: dataset.tree[1] } })).toBe('transparent');
  });

  it('google-chart is drawn by the same renderer with its type mapped', async () => {
    show({ visualisation: '{"google-chart":{"chartType":"BarChart","options":{"title":"ignored"}}}' });
    const config = await lastChart();
    expect(config.type).toBe('bar');
    expect(config.options?.indexAxis).toBe('y');
  });

  it('lays chartjs options over ours but never over the click handler', async () => {
    show({ visualisation: chartJs('bar', { plugins: { legend: { position: 'left' } }, onClick: 'x', __proto__: { bad: 1 } }) });
    const config = await lastChart();
    expect(config.options?.plugins?.legend?.position).toBe('left');
    expect(typeof config.options?.onClick).toBe('function');
  });

  it('a configuration chart.js refuses is shown as a message, not thrown', async () => {
    show({ visualisation: chartJs('bar', { refuse: true }) });
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(CHART_FAILED);
    expect(status.textContent).toContain('"radial" is not a registered scale.');
  });

  it('a click on a bar follows the metadata link to another dataset', async () => {
    const metadata = JSON.stringify({ links: [{ dataset: 'sales/detail' }], related_table: { columns: [{ name: 'month' }], aggregates: [{ name: 'revenue' }] } });
    show({ visualisation: chartJs('bar'), metadata });
    const config = await lastChart();
    act(() => (config.options?.onClick as (e: unknown, elements: { datasetIndex: number }[]) => void)(null, [{ datasetIndex: 0 }]));
    expect(screen.getByTestId('location').textContent).toBe('/l/w1/dataset/sales/detail');
  });

  it('compact hides the legend and tooltips', async () => {
    const metadata = JSON.stringify({ related_table: { columns: [{ name: 'month' }], aggregates: [{ name: 'revenue' }, { name: 'cost' }] } });
    show({ visualisation: chartJs('line'), metadata, rows: [{ month: 'a', revenue: 1, cost: 2 }], compact: true });
    const config = await lastChart();
    expect(config.options?.plugins?.legend?.display).toBe(false);
    expect(config.options?.plugins?.tooltip?.enabled).toBe(false);
  });

  it('a page re-render with the same rows does not redraw the chart', async () => {
    const element = (href: (alias: string) => string) => (
      <MemoryRouter>
        <Visualisation dataset={{ title: 'T', alias: 'a', visualisation: chartJs('bar'), metadata: META, rawData: null, continuousPoll: false }} rows={ROWS} mode="chart" datasetHref={href} />
      </MemoryRouter>
    );
    const view = render(element((a) => `/x/${a}`));
    await lastChart();
    view.rerender(element((a) => `/y/${a}`));
    view.rerender(element((a) => `/z/${a}`));
    expect(charts.made).toHaveLength(1);
    expect(charts.made[0]!.updates).toBe(0);
  });

  it('new rows from a poll update the drawn chart in place', async () => {
    const view = show({ visualisation: chartJs('bar') });
    await lastChart();
    view.rerender(
      <MemoryRouter>
        <Visualisation dataset={{ title: 'Monthly revenue', alias: 'a', visualisation: chartJs('bar'), metadata: META, rawData: null, continuousPoll: false }} rows={[{ month: 'x', revenue: 1 }]} mode="chart" datasetHref={(a) => a} />
      </MemoryRouter>,
    );
    await waitFor(() => expect(charts.made.some((c) => c.updates > 0 || c.destroyed)).toBe(true));
  });
});

describe('Visualisation: the §5 messages', () => {
  it.each([
    ['Chart has no metadata', { visualisation: chartJs('bar'), metadata: null }, CHART_HAS_NO_METADATA],
    ["Unable to parse 'metadata'", { visualisation: chartJs('bar'), metadata: '{nope' }, METADATA_UNPARSEABLE],
    ['Dataset metadata is not well formed', { visualisation: chartJs('bar'), metadata: '{"related_table":[]}' }, METADATA_NOT_WELL_FORMED],
    ['Link error', { visualisation: chartJs('bar'), metadata: JSON.stringify({ links: [{ label: 'x' }], related_table: { aggregates: [{ name: 'revenue' }] } }) }, LINK_EXPECTED_HREF],
    ['No data to display', { visualisation: chartJs('bar'), rows: [] }, NO_DATA_TO_DISPLAY],
    ['Row data does not conform (chart)', { visualisation: chartJs('bar'), rows: [{ city: 'Leeds' }] }, ROW_DATA_NONCONFORMING],
    ['Nothing here', { visualisation: '{"html-metric":{}}', rows: [] }, NOTHING_HERE],
  ] as const)('%s', async (_name, overrides, message) => {
    show(overrides);
    expect((await screen.findByRole('status')).textContent).toContain(message);
    expect(charts.made).toHaveLength(0);
  });

  it("'Unable to parse 'metadata' for this dataset -' comes with the parser's complaint and 'not well formed' with the text", () => {
    show({ visualisation: chartJs('bar'), metadata: '{"related_table":[]}' });
    expect(screen.getByRole('status').textContent).toContain('{"related_table":[]}');
  });

  it('a carousel row without name or url names the expected and actual keys', async () => {
    show({ visualisation: '{"carousel":{}}', rows: [{ title: 'A', link: 'https://x.test/a.png' }] });
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(ROW_DATA_NONCONFORMING);
    expect(status.textContent).toContain('expected keys: name, url; actual keys: title, link');
  });
});

describe('Visualisation: metric, carousel, image, mermaid', () => {
  it('html-metric shows the figures on the first palette colour', async () => {
    const metadata = JSON.stringify({ palette: [[200, 10, 10]], related_table: { aggregates: [{ name: 'revenue', label: 'Revenue' }] } });
    show({ visualisation: '{"html-metric":{}}', metadata, rows: [{ revenue: 152300 }] });
    const card = await screen.findByTestId('metric');
    expect(card.textContent).toContain((152300).toLocaleString());
    expect(card.textContent).toContain('Revenue');
    expect(card.style.backgroundColor).toBe('rgb(200, 10, 10)');
  });

  it('carousel shows named images and never a javascript: src', async () => {
    show({ visualisation: '{"carousel":{}}', rows: [{ name: 'One', url: 'https://x.test/1.png' }, { name: 'Two', url: 'javascript:alert(1)' }] });
    const image = await screen.findByRole('img', { name: 'One' }, { timeout: 10_000 });
    expect(image.getAttribute('src')).toBe('https://x.test/1.png');
    expect(document.querySelector('img[src^="javascript"]')).toBeNull();
  });

  it("image shows the visualisation's url and refuses other schemes", async () => {
    const view = show({ visualisation: '{"image":{"url":"https://x.test/pic.png"}}', rows: [] });
    expect((await screen.findByRole('img', { name: 'Monthly revenue' }, { timeout: 10_000 })).getAttribute('src')).toBe('https://x.test/pic.png');
    view.unmount();
    show({ visualisation: '{"image":{"url":"javascript:alert(1)"}}', rows: [] });
    expect(screen.getByRole('status').textContent).toContain(NO_DATA_TO_DISPLAY);
  });

  it("mermaid draws rawData in strict mode, even before the rows arrive", async () => {
    mermaidApi.render.mockResolvedValue({ svg: '<svg data-testid="diagram"><text>A</text></svg>' });
    show({ visualisation: '{"mermaid":{}}', rawData: 'graph TD; A-->B', rows: undefined });
    // the mermaid renderer is a lazy chunk: its first import can take seconds on a loaded machine
    await screen.findByTestId('diagram', undefined, { timeout: 10_000 });
    expect(mermaidApi.initialize).toHaveBeenCalledWith(expect.objectContaining({ securityLevel: 'strict', startOnLoad: false }));
    expect(mermaidApi.render).toHaveBeenCalledWith(expect.any(String), 'graph TD; A-->B');
  });

  it('a mermaid error is shown as a message, not thrown', async () => {
    mermaidApi.render.mockRejectedValue(new Error('Parse error on line 1'));
    show({ visualisation: '{"mermaid":{}}', rawData: 'graph ???' });
    const status = await screen.findByRole('status', undefined, { timeout: 10_000 });
    expect(status.textContent).toContain('Parse error on line 1');
  });
});

describe('Visualisation: continuous poll', () => {
  it('calls onRefresh every 5 s while mounted and stops on unmount', () => {
    vi.useFakeTimers();
    const onRefresh = vi.fn();
    const view = show({ visualisation: '{"html-table":{}}', continuousPoll: true, onRefresh });
    vi.advanceTimersByTime(4_999);
    expect(onRefresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onRefresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(onRefresh).toHaveBeenCalledTimes(3);
    view.unmount();
    vi.advanceTimersByTime(20_000);
    expect(onRefresh).toHaveBeenCalledTimes(3);
  });

  it('does not poll without continuousPoll', () => {
    vi.useFakeTimers();
    const onRefresh = vi.fn();
    show({ visualisation: '{"html-table":{}}', onRefresh });
    vi.advanceTimersByTime(20_000);
    expect(onRefresh).not.toHaveBeenCalled();
  });
});
