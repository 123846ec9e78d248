import { describe, expect, it } from 'vitest';
import { buildChartModel, BUBBLE_MAX_RADIUS, BUBBLE_MIN_RADIUS } from './chartData';
import { MATATIKA_EXAMPLES } from './matatikaExamples.fixture';
import { columnLabels, parseMetadata } from './metadata';
import { parseVisualisation } from './spec';
import { tableColumns } from './table';

// Every one of Matatika's published DatasetML examples (the reference page's own, the basic and the
// advanced ones), in our own data of the same shape, drawn as the chart model the page draws.

function modelOf(visualisation: string, metadata: string, rows: readonly Record<string, unknown>[]) {
  const spec = parseVisualisation(visualisation);
  if (spec.kind !== 'chart') throw new Error(`not a chart: ${spec.kind}`);
  const result = buildChartModel({ chartType: spec.chartType, stacked: spec.stacked, metadata: parseMetadata(metadata), rows, datasetHref: (alias) => alias, compact: false });
  if (!result.ok) throw new Error(`${result.message} ${result.detail ?? ''}`);
  return result.model;
}

describe("Matatika's DatasetML examples", () => {
  it('covers every published example and our bubble', () => {
    expect(MATATIKA_EXAMPLES.map((example) => example.key)).toEqual([
      'daily-users', 'basic-bar', 'grouped-bar', 'stacked-bar', 'doughnut', 'pie', 'line',
      'labeled-axis', 'max-scale', 'start-at-0', 'tick-scaling', 'bubble',
    ]);
  });

  for (const example of MATATIKA_EXAMPLES) {
    it(`${example.key}: ${example.follows}`, () => {
      const model = modelOf(example.visualisation, example.metadata, example.rows);
      expect(model.chartType).toBe(example.expected.chartType);
      expect(model.stacked).toBe(example.expected.stacked);
      expect(model.labels).toEqual(example.expected.labels);
      expect(model.series.map((series) => ({ label: series.label, values: series.values }))).toEqual(example.expected.series);
      // the table view's headers: the metadata labels of the row keys
      const metadata = parseMetadata(example.metadata);
      if (!metadata.ok) throw new Error('metadata');
      const labels = columnLabels(metadata.metadata, example.rows);
      expect(tableColumns(example.rows).map((key) => labels.get(key) ?? key)).toEqual(example.expected.tableHeaders);
    });
  }

  it('draws one-row examples as a slice per aggregate, pie or doughnut alike', () => {
    const pie = MATATIKA_EXAMPLES.find((example) => example.key === 'pie');
    if (!pie) throw new Error('pie');
    const asPie = modelOf(pie.visualisation.replace('doughnut', 'pie'), pie.metadata, pie.rows);
    expect(asPie.chartType).toBe('pie');
    expect(asPie.labels).toEqual(pie.expected.labels);
    expect(asPie.categoryColours).toHaveLength(7);
    expect(asPie.showLegend).toBe(true);
  });

  it('sizes the bubbles by the last aggregate, within bounds, and keeps the sizes for the tooltip', () => {
    const bubble = MATATIKA_EXAMPLES.find((example) => example.key === 'bubble');
    if (!bubble) throw new Error('bubble');
    const model = modelOf(bubble.visualisation, bubble.metadata, bubble.rows);
    const [cakes] = model.series;
    expect(model.series).toHaveLength(1);
    expect(model.sizeLabel).toBe('Orders');
    expect(cakes?.xs).toEqual([420, 310, 505, 275, 390]);
    expect(cakes?.sizes).toEqual([96, 130, 74, 118, 52]);
    // the biggest order count is the biggest bubble; every radius is within bounds
    expect(cakes?.radii[1]).toBe(BUBBLE_MAX_RADIUS);
    for (const radius of cakes?.radii ?? []) expect(radius).toBeGreaterThanOrEqual(BUBBLE_MIN_RADIUS);
    // the size aggregate has no axis: the y axis is the drawn aggregate's
    expect(model.axes).toEqual([{ id: 'y', title: 'Cakes', position: 'left' }]);
  });
});
