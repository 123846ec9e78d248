import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChartEdit, BUILDER_KINDS, editChartBuilder, PALETTE_COLOUR_NAMES, readChartBuilder, writeChartBuilder, type BuilderTexts, type ChartEdit } from './chartBuilder';
import { EMPTY_SOURCE, type BuilderSource } from './chartBuilderColumns';
import { hostileStringWithHuge } from './hostile.fixture';
import { buildChartModel } from './visualisation/chartData';
import { parseMetadata } from './visualisation/metadata';
import { DEFAULT_PALETTE } from './visualisation/palette';
import { parseVisualisation } from './visualisation/spec';

const ORDERS: BuilderSource = {
  columns: ['status', 'orders', 'value'],
  rows: [
    { status: 'paid', orders: 5, value: '12.5' },
    { status: 'shipped', orders: 3, value: 7 },
  ],
};
const EMPTY: BuilderTexts = { visualisation: '', metadata: '' };

const apply = (texts: BuilderTexts, ...edits: ChartEdit[]) => edits.reduce((t, edit) => applyChartEdit(t, edit, ORDERS), texts);
const stateOf = (texts: BuilderTexts) => {
  const read = readChartBuilder(texts);
  if (!read.ok) throw new Error(read.problem);
  return read.state;
};

describe('the chart builder writes what the renderers read', () => {
  it("the field's own example becomes a drawable bar chart by picking, not typing", () => {
    const texts = apply({ visualisation: '{"chartjs-chart":{"chartType":"bar"}}', metadata: '' }, { type: 'labelColumns', keys: ['status'] }, { type: 'valueColumns', keys: ['orders'] });
    expect(JSON.parse(texts.visualisation)).toEqual({ 'chartjs-chart': { chartType: 'bar' } });
    expect(JSON.parse(texts.metadata)).toEqual({ related_table: { columns: [{ name: 'status', label: 'Status' }], aggregates: [{ name: 'orders', label: 'Orders' }] } });
    const spec = parseVisualisation(texts.visualisation);
    if (spec.kind !== 'chart') throw new Error('not a chart');
    const chart = buildChartModel({ chartType: spec.chartType, stacked: false, metadata: parseMetadata(texts.metadata), rows: ORDERS.rows, datasetHref: (a) => a, compact: false });
    expect(chart).toMatchObject({ ok: true, model: { labels: ['paid', 'shipped'], series: [{ label: 'Orders', values: [5, 3] }] } });
  });

  it('a first chart type on an empty form suggests the columns: text names, numbers are drawn', () => {
    const texts = apply(EMPTY, { type: 'kind', kind: 'bar' });
    expect(stateOf(texts)).toMatchObject({ kind: 'bar', labels: [{ name: 'status', label: 'Status' }], values: [{ name: 'orders' }, { name: 'value' }] });
    // a scatter places points by numbers
    expect(stateOf(apply(EMPTY, { type: 'kind', kind: 'scatter' }))).toMatchObject({ labels: [{ name: 'orders' }], values: [{ name: 'value' }] });
    // once columns are chosen, changing the type keeps them
    const line = apply(texts, { type: 'valueColumns', keys: ['value'] }, { type: 'kind', kind: 'line' });
    expect(stateOf(line)).toMatchObject({ kind: 'line', values: [{ name: 'value' }] });
  });

  it('writes every kind the renderers draw', () => {
    for (const kind of BUILDER_KINDS) {
      const texts = apply(EMPTY, { type: 'kind', kind });
      const spec = parseVisualisation(texts.visualisation);
      if (kind === 'table') expect(spec.kind).toBe('html-table');
      else if (kind === 'metric') expect(spec.kind).toBe('html-metric');
      else expect(spec).toMatchObject({ kind: 'chart', source: 'chartjs-chart', chartType: kind });
      expect(stateOf(texts).kind).toBe(kind);
    }
  });

  it('keeps what it does not own: options, other keys, column details, metadata name and links', () => {
    const visualisation = '{"title":"x","chartjs-chart":{"chartType":"Bar","options":{"indexAxis":"y","__proto__":{"a":1}}}}';
    const metadata = JSON.stringify({ name: 'orders', label: 'Orders', links: [{ dataset: 'detail' }], related_table: { description: 't', columns: [{ name: 'status', description: 'd', type: 'text' }], aggregates: [{ name: 'orders', label: 7, post_process_expr: 'value => value * 2' }] } });
    const texts = apply({ visualisation, metadata }, { type: 'kind', kind: 'line' }, { type: 'columnLabel', role: 'label', index: 0, label: 'State' });
    expect(texts.visualisation).toContain('"__proto__"');
    const vis = JSON.parse(texts.visualisation) as Record<string, unknown>;
    expect(Object.keys(vis)).toEqual(['title', 'chartjs-chart']);
    expect(JSON.stringify(vis['chartjs-chart'])).toBe('{"chartType":"line","options":{"indexAxis":"y","__proto__":{"a":1}}}');
    expect(JSON.parse(texts.metadata)).toEqual({
      name: 'orders',
      label: 'Orders',
      links: [{ dataset: 'detail' }],
      related_table: { description: 't', columns: [{ name: 'status', description: 'd', type: 'text', label: 'State' }], aggregates: [{ name: 'orders', label: 7, post_process_expr: 'value => value * 2' }] },
    });
  });

  it('reads qualified keys through the metadata name and writes the short name', () => {
    const source: BuilderSource = { columns: ['orders.status', 'orders.count'], rows: [{ 'orders.status': 'paid', 'orders.count': 2 }] };
    const texts = applyChartEdit({ visualisation: '', metadata: '{"name":"orders"}' }, { type: 'valueColumns', keys: ['orders.count'] }, source);
    expect(JSON.parse(texts.metadata)).toMatchObject({ related_table: { aggregates: [{ name: 'count', label: 'Count' }] } });
  });

  it('colours: a slot takes a palette colour, the others keep theirs; a clear label shows the name', () => {
    const texts = apply(EMPTY, { type: 'kind', kind: 'bar' }, { type: 'colour', index: 1, colour: [227, 0, 140] });
    const palette = parseMetadata(texts.metadata);
    expect(palette.ok && palette.metadata.palette?.slice(0, 3)).toEqual([DEFAULT_PALETTE[0], [227, 0, 140], DEFAULT_PALETTE[2]]);
    const cleared = apply(texts, { type: 'columnLabel', role: 'value', index: 0, label: '' });
    expect(stateOf(cleared).values[0]).toEqual({ name: 'orders', label: null });
    expect(JSON.parse(cleared.metadata)).toMatchObject({ related_table: { aggregates: [{ name: 'orders' }, { name: 'value', label: 'Value' }] } });
    // a colour that is not one is ignored
    expect(apply(texts, { type: 'colour', index: -1, colour: [1, 2, 3] })).toEqual(texts);
    expect(apply(texts, { type: 'colour', index: 0, colour: [1.5, 2, 3] })).toEqual(texts);
    expect(PALETTE_COLOUR_NAMES).toHaveLength(DEFAULT_PALETTE.length);
  });

  it('says why it cannot read JSON, and leaves that JSON alone', () => {
    const cases: [BuilderTexts, RegExp][] = [
      [{ visualisation: '{"chartjs-chart":', metadata: '' }, /not valid JSON/],
      [{ visualisation: '[]', metadata: '' }, /not a JSON object/],
      [{ visualisation: '{"google-chart":{"chartType":"BarChart"}}', metadata: '' }, /google-chart is edited as JSON/],
      [{ visualisation: '{"mermaid":{}}', metadata: '' }, /mermaid/],
      [{ visualisation: '{"chartjs-chart":{"chartType":"radar"}}', metadata: '' }, /"radar" is not one of/],
      [{ visualisation: '{"chartjs-chart":{}}', metadata: '' }, /chartType undefined/],
      [{ visualisation: '{"chartjs-chart":{"chartType":"bar"},"html-table":{}}', metadata: '' }, /several kinds/],
      [{ visualisation: '{"foo":1}', metadata: '' }, /no kind the builder knows/],
      [{ visualisation: '', metadata: '{"related_table":{"columns":[{"label":"x"}]}}' }, /not well formed/],
      [{ visualisation: '', metadata: '{name' }, /Unable to parse/],
      [{ visualisation: `{"chartjs-chart":{"chartType":"bar","options":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`, metadata: '' }, /nested too deeply/],
    ];
    for (const [texts, problem] of cases) {
      const read = readChartBuilder(texts);
      expect(read.ok ? 'read' : read.problem).toMatch(problem);
      expect(applyChartEdit(texts, { type: 'kind', kind: 'pie' }, ORDERS)).toBe(texts);
    }
  });
});

// Documents the builder understands, with everything else a user may add around its parts.
const extraKeys = (owned: readonly string[]) => fc.dictionary(fc.string().filter((k) => !owned.includes(k)), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const chartTypeName = fc.constantFrom('bar', 'Bar', 'LINE', 'area', 'scatter', 'pie', 'doughnut', 'treemap', 'horizontalBar', 'horizontal-bar', 'horizontal_bar');
const visualisationDoc = fc.oneof(
  fc.constant(''),
  fc.constant('{}'),
  fc.tuple(extraKeys(['chartjs-chart', 'google-chart', 'html-table', 'html-metric', 'handsontable-table', 'mermaid', 'carousel', 'image']), fc.oneof(
    fc.record({ 'chartjs-chart': fc.tuple(chartTypeName, extraKeys(['chartType'])).map(([chartType, rest]) => ({ ...rest, chartType })) }),
    fc.record({ 'html-table': extraKeys([]) }),
    fc.record({ 'html-metric': extraKeys([]) }),
  ), fc.constantFrom(0, 2)).map(([rest, kind, indent]) => JSON.stringify({ ...rest, ...kind }, null, indent)),
);
const name = fc.string({ minLength: 1 }).filter((s) => s.trim() !== '');
const column = fc.tuple(name, fc.option(fc.oneof(fc.string(), fc.integer(), fc.boolean()), { nil: undefined }), extraKeys(['name', 'label', 'links', 'post_process', 'post_process_expr', 'description', 'type', 'yaxis'])).map(([n, label, rest]) => ({ ...rest, name: n, ...(label === undefined ? {} : { label }) }));
const metadataDoc = fc.oneof(
  fc.constant(''),
  fc.record(
    {
      name: fc.oneof(fc.constant('orders'), fc.string()),
      label: fc.string(),
      related_table: fc.record({ columns: fc.array(column, { maxLength: 3 }), aggregates: fc.array(column, { maxLength: 3 }) }, { requiredKeys: [] }),
      palette: fc.array(fc.tuple(fc.double({ min: 0, max: 255, noNaN: true }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
    },
    { requiredKeys: [] },
  ).chain((doc) => extraKeys(['name', 'label', 'links', 'palette', 'related_table']).map((rest) => JSON.stringify({ ...rest, ...doc }))),
);
const understood = fc.record({ visualisation: visualisationDoc, metadata: metadataDoc });
const hostileTexts = fc.record({ visualisation: fc.oneof(hostileStringWithHuge, fc.json(), visualisationDoc), metadata: fc.oneof(hostileStringWithHuge, fc.json(), metadataDoc) });

const keys = fc.array(fc.oneof(fc.constantFrom(...ORDERS.columns, 'orders.status', ''), fc.string()), { maxLength: 4 });
const edit: fc.Arbitrary<ChartEdit> = fc.oneof(
  fc.constantFrom(...BUILDER_KINDS).map((kind) => ({ type: 'kind' as const, kind })),
  keys.map((k) => ({ type: 'labelColumns' as const, keys: k })),
  keys.map((k) => ({ type: 'valueColumns' as const, keys: k })),
  fc.record({ type: fc.constant('columnLabel' as const), role: fc.constantFrom('label' as const, 'value' as const), index: fc.integer({ min: -1, max: 4 }), label: fc.string() }),
  fc.record({ type: fc.constant('colour' as const), index: fc.integer({ min: -1, max: 14 }), colour: fc.constantFrom(...DEFAULT_PALETTE, [1, 2, 3] as const) }),
);
const source = fc.oneof(fc.constant(ORDERS), fc.constant(EMPTY_SOURCE), fc.array(fc.dictionary(fc.constantFrom('a', 'b', 'orders.c'), fc.jsonValue({ maxDepth: 1 })), { maxLength: 4 }).map((rows) => ({ columns: ['a', 'b', 'orders.c'], rows })));

describe('the chart builder on any JSON (properties)', () => {
  it('never throws, and leaves JSON it cannot read exactly as it was', () => {
    fc.assert(
      fc.property(hostileTexts, edit, source, (texts, e, src) => {
        const read = readChartBuilder(texts);
        const next = applyChartEdit(texts, e, src);
        if (!read.ok) expect(next).toBe(texts);
        else expect(readChartBuilder(next).ok).toBe(true);
      }),
    );
  });

  it('writing what it read changes not one character', () => {
    fc.assert(
      fc.property(understood, (texts) => {
        const read = readChartBuilder(texts);
        expect(read.ok).toBe(true);
        if (read.ok) expect(writeChartBuilder(texts, read.state)).toEqual(texts);
      }),
    );
  });

  it('builder → JSON → builder is the same choice, and the renderers read that choice', () => {
    fc.assert(
      fc.property(understood, fc.array(edit, { maxLength: 6 }), source, (texts, edits, src) => {
        let current = texts;
        for (const e of edits) {
          const before = readChartBuilder(current);
          if (!before.ok) throw new Error(before.problem);
          const expected = editChartBuilder(before.state, e, src);
          current = applyChartEdit(current, e, src);
          const after = readChartBuilder(current);
          expect(after).toEqual({ ok: true, state: expected });
          const metadata = parseMetadata(current.metadata);
          if (expected.kind !== null && expected.kind !== 'table' && expected.kind !== 'metric') expect(parseVisualisation(current.visualisation)).toMatchObject({ kind: 'chart', chartType: expected.kind });
          if (metadata.ok) expect(metadata.metadata.aggregates.map((a) => [a.name, a.label])).toEqual(expected.values.map((v) => [v.name, v.label ?? v.name]));
          else expect(metadata.reason).toBe('missing');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('what it does not own survives every edit', () => {
    fc.assert(
      fc.property(understood, fc.array(edit, { maxLength: 4 }), (texts, edits) => {
        const next = edits.reduce((t, e) => applyChartEdit(t, e, ORDERS), texts);
        const withoutOwned = (text: string) => {
          if (text.trim() === '') return {};
          const { related_table: _t, palette: _p, ...rest } = JSON.parse(text) as Record<string, unknown>;
          return rest;
        };
        expect(withoutOwned(next.metadata)).toEqual(withoutOwned(texts.metadata));
        const otherKinds = (text: string) => (text.trim() === '' ? {} : Object.fromEntries(Object.entries(JSON.parse(text) as object).filter(([k]) => !['chartjs-chart', 'html-table', 'html-metric'].includes(k))));
        expect(otherKinds(next.visualisation)).toEqual(otherKinds(texts.visualisation));
      }),
    );
  });
});

describe('the chart builder, at its edges', () => {
  const BAR = '{"chartjs-chart":{"chartType":"bar"}}';
  const meta = (related: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ ...extra, related_table: related });
  const problemOf = (texts: BuilderTexts) => {
    const read = readChartBuilder(texts);
    return read.ok ? 'read' : read.problem;
  };

  it('reads blank texts as nothing chosen yet, and writes into them', () => {
    expect(readChartBuilder({ visualisation: '  ', metadata: ' ' })).toEqual({ ok: true, state: { kind: null, labels: [], values: [], palette: null, metadataName: null } });
    const texts = applyChartEdit({ visualisation: '  ', metadata: ' ' }, { type: 'kind', kind: 'bar' }, ORDERS);
    expect(JSON.parse(texts.visualisation)).toEqual({ 'chartjs-chart': { chartType: 'bar' } });
    expect(JSON.parse(texts.metadata)).toEqual({ related_table: { columns: [{ name: 'status', label: 'Status' }], aggregates: [{ name: 'orders', label: 'Orders' }, { name: 'value', label: 'Value' }] } });
  });

  it('says exactly what it cannot read', () => {
    expect(problemOf({ visualisation: '{"chartjs-chart":{"chartType":"bar"},"html-table":{}}', metadata: '' })).toBe('The visualisation names several kinds (chartjs-chart, html-table).');
    expect(problemOf({ visualisation: '{"html-table":1}', metadata: '' })).toBe("The visualisation's html-table is not a JSON object.");
    expect(problemOf({ visualisation: '{"chartjs-chart":{"chartType":"radar"}}', metadata: '' })).toBe(
      'The chartType "radar" is not one of bar, line, area, scatter, bubble, pie, doughnut, treemap, horizontalBar.',
    );
    expect(problemOf({ visualisation: '{}', metadata: '' })).toBe('read');
    expect(problemOf({ visualisation: '', metadata: `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}` })).toBe('The metadata is nested too deeply to be rewritten.');
  });

  it('a table or a metric is written without a chartType', () => {
    expect(JSON.parse(apply(EMPTY, { type: 'kind', kind: 'table' }).visualisation)).toEqual({ 'html-table': {} });
    expect(JSON.parse(apply(EMPTY, { type: 'kind', kind: 'metric' }).visualisation)).toEqual({ 'html-metric': {} });
  });

  it('a fresh bubble chart is placed by numbers too', () => {
    expect(stateOf(apply(EMPTY, { type: 'kind', kind: 'bubble' }))).toMatchObject({ labels: [{ name: 'orders' }], values: [{ name: 'value' }] });
  });

  it('an unknown kind changes nothing', () => {
    const state = stateOf(apply(EMPTY, { type: 'kind', kind: 'bar' }));
    expect(editChartBuilder(state, { type: 'kind', kind: 'radar' as never }, ORDERS)).toBe(state);
  });

  it('changing the kind keeps label columns or value columns chosen alone', () => {
    const labelsOnly = { visualisation: BAR, metadata: meta({ columns: [{ name: 'status' }], aggregates: [] }) };
    expect(stateOf(apply(labelsOnly, { type: 'kind', kind: 'line' }))).toMatchObject({ kind: 'line', labels: [{ name: 'status' }], values: [] });
    const valuesOnly = { visualisation: BAR, metadata: meta({ columns: [], aggregates: [{ name: 'value' }] }) };
    expect(stateOf(apply(valuesOnly, { type: 'kind', kind: 'line' }))).toMatchObject({ kind: 'line', labels: [], values: [{ name: 'value' }] });
  });

  it('picking columns skips blank keys and keeps the labels of columns already chosen', () => {
    const texts = { visualisation: BAR, metadata: meta({ columns: [], aggregates: [{ name: 'orders', label: 'N' }] }) };
    expect(stateOf(apply(texts, { type: 'valueColumns', keys: [' ', 'value', 'orders'] })).values).toEqual([
      { name: 'value', label: 'Value' },
      { name: 'orders', label: 'N' },
    ]);
  });

  it('a column picked without a label, or with its label cleared, is written without one', () => {
    const state = stateOf({ visualisation: BAR, metadata: meta({ columns: [{ name: 'status', label: 'S', type: 'text' }], aggregates: [] }) });
    const texts = { visualisation: BAR, metadata: meta({ columns: [{ name: 'status', label: 'S', type: 'text' }], aggregates: [] }) };
    const written = writeChartBuilder(texts, { ...state, labels: [{ name: 'status', label: null }], values: [{ name: 'orders', label: null }] });
    expect(JSON.parse(written.metadata)).toEqual({ related_table: { columns: [{ name: 'status', type: 'text' }], aggregates: [{ name: 'orders' }] } });
  });

  it('a renamed column with the same label is a change', () => {
    const texts = { visualisation: BAR, metadata: meta({ columns: [{ name: 'a', label: 'A' }], aggregates: [] }) };
    const written = writeChartBuilder(texts, { ...stateOf(texts), labels: [{ name: 'b', label: 'A' }] });
    expect(JSON.parse(written.metadata)).toEqual({ related_table: { columns: [{ name: 'b', label: 'A' }], aggregates: [] } });
  });

  it('the palette: cleared is removed, a changed channel is written, an unchanged one keeps its text', () => {
    const texts = { visualisation: BAR, metadata: meta({ columns: [], aggregates: [] }, { palette: [[1.4, 2, 3]] }) };
    const state = stateOf(texts);
    expect(state.palette).toEqual([[1, 2, 3]]);
    expect(JSON.parse(writeChartBuilder(texts, { ...state, palette: null }).metadata)).toEqual({ related_table: { columns: [], aggregates: [] } });
    expect(JSON.parse(writeChartBuilder(texts, { ...state, palette: [[1, 2, 4]] }).metadata)).toEqual({ palette: [[1, 2, 4]], related_table: { columns: [], aggregates: [] } });
    // a label changed: the palette as typed (1.4) stays
    const relabelled = writeChartBuilder(texts, { ...state, values: [{ name: 'orders', label: 'N' }] });
    expect(JSON.parse(relabelled.metadata)).toEqual({ palette: [[1.4, 2, 3]], related_table: { columns: [], aggregates: [{ name: 'orders', label: 'N' }] } });
  });

  it('writing: unreadable texts come back as they are, and no kind leaves the visualisation alone', () => {
    const bad = { visualisation: '[]', metadata: '' };
    const state = stateOf(apply(EMPTY, { type: 'kind', kind: 'bar' }));
    expect(writeChartBuilder(bad, state)).toBe(bad);
    const texts = { visualisation: '{ "chartjs-chart": { "chartType": "bar" } }', metadata: '' };
    expect(writeChartBuilder(texts, { ...stateOf(texts), kind: null }).visualisation).toBe(texts.visualisation);
  });

  it('a colour is three whole numbers from 0 to 255 for a slot from 0 to 999; anything else changes nothing', () => {
    const texts = apply(EMPTY, { type: 'kind', kind: 'bar' });
    expect(stateOf(texts).palette).toBeNull();
    for (const edit of [
      { index: -1, colour: [1, 2, 3] },
      { index: 1000, colour: [1, 2, 3] },
      { index: Number.NaN, colour: [1, 2, 3] },
      { index: Number.POSITIVE_INFINITY, colour: [1, 2, 3] },
      { index: 0, colour: [1, 2] },
      { index: 0, colour: [1, 2, 3, 4] },
      { index: 0, colour: [-1, 2, 3] },
      { index: 0, colour: [1, 256, 3] },
      { index: 0, colour: [1, 2, 2.5] },
    ]) {
      expect(applyChartEdit(texts, { type: 'colour', index: edit.index, colour: edit.colour as never }, ORDERS)).toEqual(texts);
    }
    expect(stateOf(applyChartEdit(texts, { type: 'colour', index: 0, colour: [0, 255, 0] }, ORDERS)).palette?.[0]).toEqual([0, 255, 0]);
    const last = stateOf(applyChartEdit(texts, { type: 'colour', index: 999, colour: [1, 2, 3] }, ORDERS)).palette;
    expect(last).toHaveLength(1000);
    expect(last?.[999]).toEqual([1, 2, 3]);
    // one past the default palette: the palette grows by that slot
    const grown = stateOf(applyChartEdit(texts, { type: 'colour', index: 12, colour: [1, 2, 3] }, ORDERS)).palette;
    expect(grown).toHaveLength(13);
    expect(grown?.[12]).toEqual([1, 2, 3]);
    expect(grown?.[11]).toEqual([96, 94, 92]);
  });
});
