// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure } from '../../../api/errors';
import type { FeedView } from '../../../domain/explore';
import type { Dataset } from '../../../domain/resources';
import { DatasetCard } from './DatasetCard';

// What a feed card draws (issue 20): a Large card with a visualisation and a data link reads its
// rows once it is in view and draws them; List, Grid and datasets without either stay text.

// The API client: every data read is counted; a test may make the server refuse.
const api = vi.hoisted(() => ({ reads: [] as string[], refuse: null as string | null }));
const rowsOf = [{ month: '2024-01', revenue: 10 }, { month: '2024-02', revenue: 20 }];
const client = {
  follow: vi.fn((resource: { _links?: Record<string, { href: string }> }, rel: string) => {
    api.reads.push(`${rel} ${resource._links?.[rel]?.href ?? ''}`);
    if (api.refuse !== null) {
      return Promise.reject(
        new ApiFailure({ kind: 'response', status: 400, message: 'refused', body: { timestamp: '', status: 400, error: 'Bad Request', message: api.refuse, path: '' } }),
      );
    }
    return Promise.resolve(rowsOf);
  }),
};
vi.mock('../../runtime', () => ({
  useRuntime: () => ({ client }),
  useOptionalRuntime: () => ({ config: { handsontableLicenseKey: null } }),
}));

// chart.js itself is the renderer's test; here the chart is a canvas naming its title and type.
vi.mock('../visualisation/ChartJsChart', () => ({
  default: ({ title, model }: { title: string; model: { chartType: string } }) => <canvas role="img" aria-label={title} data-chart-type={model.chartType} />,
}));

// An IntersectionObserver the test moves into view.
const observed = vi.hoisted(() => ({ observers: [] as { callback: IntersectionObserverCallback; elements: Element[] }[] }));
class FakeIntersectionObserver {
  record: { callback: IntersectionObserverCallback; elements: Element[] };
  constructor(callback: IntersectionObserverCallback) {
    this.record = { callback, elements: [] };
    observed.observers.push(this.record);
  }
  observe(element: Element) {
    this.record.elements.push(element);
  }
  disconnect() {
    this.record.elements = [];
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
}
function scrollIntoView() {
  act(() => {
    for (const { callback, elements } of observed.observers) {
      if (elements.length === 0) continue;
      callback(elements.map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry), {} as IntersectionObserver);
    }
  });
}

const META = JSON.stringify({ name: 'sales', related_table: { columns: [{ name: 'month', label: 'Month' }], aggregates: [{ name: 'revenue', label: 'Revenue' }] } });

function dataset(overrides: Partial<Dataset> = {}): Dataset {
  return {
    id: 'd1',
    alias: 'sales/monthly',
    title: 'Monthly revenue',
    description: 'Revenue by month.',
    visualisation: JSON.stringify({ 'chartjs-chart': { chartType: 'bar' } }),
    metadata: META,
    rawData: null,
    viewCount: 3,
    likeCount: 1,
    _links: { self: { href: '/api/datasets/d1' }, data: { href: '/api/datasets/d1/data' } },
    ...overrides,
  };
}

function show(item: Dataset, view: FeedView = 'largCardView') {
  return render(
    <MemoryRouter>
      <DatasetCard workspaceId="w1" dataset={item} view={view} />
    </MemoryRouter>,
  );
}

const figure = () => screen.queryByRole('figure', { name: /^Visualisation of/ });

beforeEach(() => {
  api.reads = [];
  api.refuse = null;
  observed.observers = [];
  client.follow.mockClear();
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a Large feed card', () => {
  it('reads nothing until it is in view, then reads its rows once and draws the chart', async () => {
    show(dataset());
    expect(figure()).not.toBeNull();
    expect(figure()!.getAttribute('data-card-visual')).toBe('waiting');
    expect(api.reads).toEqual([]);

    scrollIntoView();
    // the chart renderer is imported on first use: on a loaded host that can take longer than findBy's default second
    const canvas = await screen.findByRole('img', { name: 'Monthly revenue' }, { timeout: 10_000 });
    expect(canvas.getAttribute('data-chart-type')).toBe('bar');
    expect(api.reads).toEqual(['data /api/datasets/d1/data']);
    // the text is still there beside the drawing
    expect(screen.getByText('Revenue by month.')).toBeTruthy();

    // coming into view again reads nothing more
    scrollIntoView();
    await act(async () => {});
    expect(api.reads).toHaveLength(1);
  });

  it('draws a table visualisation as a table', async () => {
    show(dataset({ visualisation: JSON.stringify({ 'html-table': {} }) }));
    scrollIntoView();
    const table = await screen.findByRole('table');
    expect(table.textContent).toContain('2024-02');
  });

  it("shows the server's words when the read is refused", async () => {
    api.refuse = 'Table sales does not exist';
    show(dataset());
    scrollIntoView();
    expect(await screen.findByText('Table sales does not exist')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('falls back to the raw data when the read fails and the dataset carries some', async () => {
    api.refuse = 'No query';
    show(dataset({ rawData: 'graph TD; A-->B', visualisation: JSON.stringify({ 'html-table': {} }) }));
    scrollIntoView();
    await waitFor(() => expect(api.reads).toHaveLength(1));
    expect(await screen.findByText('No data to display')).toBeTruthy();
    expect(screen.queryByText('No query')).toBeNull();
  });

  it('is text only without a visualisation or without a data link, and reads nothing', async () => {
    show(dataset({ id: 'd2', title: 'No visualisation', visualisation: null }));
    show(dataset({ id: 'd3', title: 'No data link', _links: { self: { href: '/api/datasets/d3' } } }));
    show(dataset({ id: 'd4', title: 'Blank visualisation', visualisation: '  ' }));
    scrollIntoView();
    await act(async () => {});
    expect(figure()).toBeNull();
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(api.reads).toEqual([]);
  });
});

describe('List and Grid cards', () => {
  it.each<FeedView>(['listView', 'gridview'])('%s stays text only and reads nothing', async (view) => {
    show(dataset(), view);
    scrollIntoView();
    await act(async () => {});
    expect(figure()).toBeNull();
    expect(screen.getByRole('article', { name: 'Monthly revenue' })).toBeTruthy();
    expect(api.reads).toEqual([]);
  });
});
