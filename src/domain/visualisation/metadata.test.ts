import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../hostile.fixture';
import { METADATA_NOT_WELL_FORMED, METADATA_UNPARSEABLE } from './messages';
import { columnKey, columnLabels, columnValue, parseMetadata, rawColumnValue, type DatasetMetadata } from './metadata';

const ok = (text: string): DatasetMetadata => {
  const result = parseMetadata(text);
  if (!result.ok) throw new Error(`expected metadata, got ${JSON.stringify(result)}`);
  return result.metadata;
};

describe('parseMetadata', () => {
  it('reads the Matatika shape', () => {
    const metadata = ok(JSON.stringify({
      name: 'customer',
      label: 'Customers',
      links: [{ dataset: 'customer-detail' }],
      palette: [[10, 20, 30], [40, 50, 60]],
      related_table: {
        columns: [{ name: 'month', label: 'Month', description: 'Calendar month' }],
        aggregates: [{ name: 'visitors', label: 'Visitors', yaxis: 'people', type: 'number', links: [{ href: 'https://example.com' }] }],
      },
    }));
    expect(metadata).toMatchObject({ name: 'customer', label: 'Customers', palette: [[10, 20, 30], [40, 50, 60]], links: [{ dataset: 'customer-detail', href: null, label: null }] });
    expect(metadata.columns[0]).toMatchObject({ name: 'month', label: 'Month', description: 'Calendar month', postProcess: null });
    expect(metadata.aggregates[0]).toMatchObject({ name: 'visitors', yaxis: 'people', type: 'number', links: [{ href: 'https://example.com' }] });
  });

  it('labels default to names and missing related_table means no columns', () => {
    const metadata = ok('{"related_table":{"columns":[{"name":"a"}]}}');
    expect(metadata.columns[0]?.label).toBe('a');
    expect(ok('{}')).toMatchObject({ columns: [], aggregates: [], links: [], palette: null, name: null });
  });

  it('says when there is none, when it does not parse and when it is not well formed', () => {
    expect(parseMetadata(null)).toEqual({ ok: false, reason: 'missing' });
    expect(parseMetadata('')).toEqual({ ok: false, reason: 'missing' });
    expect(parseMetadata('{name:')).toMatchObject({ ok: false, reason: 'unparseable', message: METADATA_UNPARSEABLE });
    for (const text of ['[]', '"x"', '{"related_table":[]}', '{"related_table":{"columns":{}}}', '{"related_table":{"columns":[{"label":"no name"}]}}', '{"palette":[[1,2]]}', '{"palette":[[1,2,300]]}', '{"links":[1]}', '{"related_table":{"aggregates":[{"name":"a","post_process":"eval"}]}}', '{"related_table":{"aggregates":[{"name":"a","post_process_expr":"value =>"}]}}']) {
      const result = parseMetadata(text);
      expect(result, text).toMatchObject({ ok: false, reason: 'malformed', message: METADATA_NOT_WELL_FORMED });
      if (!result.ok && result.reason !== 'missing') expect(result.detail).toContain(text.slice(0, 20));
    }
  });

  it('applies post_process json_parse and post_process_expr, the expression winning', () => {
    const metadata = ok(JSON.stringify({ related_table: { columns: [
      { name: 'a', post_process: 'json_parse' },
      { name: 'b', post_process: 'json_parse', post_process_expr: 'value => value.toUpperCase()' },
      { name: 'c', post_process_expr: 'value => value.nope.deeper' },
    ] } }));
    const [a, b, c] = metadata.columns;
    const row = { a: '[1,2]', b: '"x"', c: 'kept' };
    expect(columnValue(row, null, a!)).toEqual([1, 2]);
    expect(columnValue(row, null, b!)).toBe('"X"');
    // a value the expression fails on is shown as it came
    expect(columnValue(row, null, c!)).toBe('kept');
  });

  it('finds a column under {name}.{column} first, then {column}', () => {
    expect(rawColumnValue({ 'customer.visitors': 5, visitors: 1 }, 'customer', 'visitors')).toBe(5);
    expect(rawColumnValue({ visitors: 1 }, 'customer', 'visitors')).toBe(1);
    expect(rawColumnValue({ visitors: 1 }, null, 'visitors')).toBe(1);
    expect(rawColumnValue({}, 'customer', 'toString')).toBeUndefined();
    expect(rawColumnValue({}, null, '__proto__')).toBeUndefined();
  });

  it('labels the table headers under the key the rows use', () => {
    const metadata = ok('{"name":"c","related_table":{"columns":[{"name":"m","label":"Month"}],"aggregates":[{"name":"v","label":"Visitors"}]}}');
    expect(columnLabels(metadata, [{ 'c.m': 'x', v: 1 }])).toEqual(new Map([['c.m', 'Month'], ['v', 'Visitors']]));
  });

  it('never throws on hostile text or JSON (property)', () => {
    const column = fc.record({ name: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor')), label: fc.jsonValue(), yaxis: fc.jsonValue(), links: fc.jsonValue(), post_process: fc.oneof(fc.string(), fc.constant('json_parse')), post_process_expr: fc.string() }, { requiredKeys: [] });
    const metadata = fc.record({ name: fc.jsonValue(), palette: fc.jsonValue(), links: fc.jsonValue(), related_table: fc.oneof(fc.jsonValue(), fc.record({ columns: fc.array(column, { maxLength: 4 }), aggregates: fc.array(column, { maxLength: 4 }) })) }, { requiredKeys: [] });
    fc.assert(fc.property(fc.oneof(hostileStringWithHuge, fc.jsonValue().map((v) => JSON.stringify(v)), metadata.map((v) => JSON.stringify(v))), (text) => {
      const result = parseMetadata(text);
      if (!result.ok && result.reason !== 'missing') expect([METADATA_UNPARSEABLE, METADATA_NOT_WELL_FORMED]).toContain(result.message);
      if (!result.ok && result.reason === 'malformed') expect(result.detail.length).toBeLessThan(1_000);
    }));
  });
});

// ---- whole values, by hand ----

const detail = (text: string): string | null => {
  const result = parseMetadata(text);
  return !result.ok && result.reason === 'malformed' ? result.detail : null;
};

describe('parseMetadata (whole values)', () => {
  it('reads every field, text from numbers and booleans, one link as a list, and rounds the palette', () => {
    expect(
      parseMetadata(
        JSON.stringify({
          name: 'customer',
          label: 7,
          links: { dataset: 'd', href: '/x', label: 3 },
          palette: [[10.4, 20.6, 30, 99], [0, 255, 0]],
          related_table: {
            columns: [{ name: 'month', label: 'Month', description: 'Calendar month', type: 'date', yaxis: null }],
            aggregates: [{ name: 'visitors', yaxis: 2, type: true, links: [{ href: 'https://example.com' }] }],
          },
        }),
      ),
    ).toStrictEqual({
      ok: true,
      metadata: {
        name: 'customer',
        label: '7',
        links: [{ dataset: 'd', href: '/x', label: '3' }],
        palette: [[10, 21, 30], [0, 255, 0]],
        columns: [{ name: 'month', label: 'Month', description: 'Calendar month', type: 'date', yaxis: null, links: [], postProcess: null }],
        aggregates: [{ name: 'visitors', label: 'visitors', description: null, type: 'true', yaxis: '2', links: [{ dataset: null, href: 'https://example.com', label: null }], postProcess: null }],
      },
    });
    expect(parseMetadata('{"name":false,"palette":[],"related_table":null,"links":null}')).toStrictEqual({ ok: true, metadata: { name: 'false', label: null, links: [], palette: null, columns: [], aggregates: [] } });
    expect(parseMetadata('{"palette":null}')).toStrictEqual({ ok: true, metadata: { name: null, label: null, links: [], palette: null, columns: [], aggregates: [] } });
    // only the first three entries of a colour are read
    expect(parseMetadata('{"palette":[[1,2,3,300,"x"]]}')).toStrictEqual({ ok: true, metadata: { name: null, label: null, links: [], palette: [[1, 2, 3]], columns: [], aggregates: [] } });
    expect(parseMetadata('{"palette":[[0,0,0],[255,255,255]],"related_table":{"columns":null,"aggregates":[{"name":"a","label":""}]}}')).toStrictEqual({
      ok: true,
      metadata: { name: null, label: null, links: [], palette: [[0, 0, 0], [255, 255, 255]], columns: [], aggregates: [{ name: 'a', label: '', description: null, type: null, yaxis: null, links: [], postProcess: null }] },
    });
  });

  it('says nothing is there for no text, blank text and anything but text', () => {
    for (const text of [undefined, null, '', ' \n\t', 42 as unknown as string]) expect(parseMetadata(text)).toStrictEqual({ ok: false, reason: 'missing' });
  });

  it('passes the JSON parser’s complaint on', () => {
    let complaint = '';
    try {
      JSON.parse('{name:');
    } catch (error) {
      complaint = (error as Error).message;
    }
    expect(parseMetadata('{name:')).toStrictEqual({ ok: false, reason: 'unparseable', message: METADATA_UNPARSEABLE, detail: complaint });
  });

  it('says what is not well formed, where, and quotes the text', () => {
    const cases: [string, string][] = [
      ['[]', 'metadata must be an object'],
      ['null', 'metadata must be an object'],
      ['"x"', 'metadata must be an object'],
      ['{"related_table":[]}', 'related_table must be an object'],
      ['{"related_table":"t"}', 'related_table must be an object'],
      ['{"related_table":{"columns":{}}}', 'related_table.columns must be a list'],
      ['{"related_table":{"aggregates":[1]}}', 'related_table.aggregates[0] must be an object'],
      ['{"related_table":{"columns":[{"name":"a"},{"label":"no name"}]}}', 'related_table.columns[1] needs a name'],
      ['{"related_table":{"columns":[{"name":"  "}]}}', 'related_table.columns[0] needs a name'],
      ['{"name":{}}', 'metadata.name must be text'],
      ['{"label":[1]}', 'metadata.label must be text'],
      ['{"palette":{}}', 'palette must be a list of [r, g, b]'],
      ['{"palette":[[1,2]]}', 'palette[0] must be [r, g, b] with 0 to 255 each'],
      ['{"palette":[[1,2,3],[0,0,256]]}', 'palette[1] must be [r, g, b] with 0 to 255 each'],
      ['{"palette":[[-1,0,0]]}', 'palette[0] must be [r, g, b] with 0 to 255 each'],
      ['{"palette":[["1",0,0]]}', 'palette[0] must be [r, g, b] with 0 to 255 each'],
      ['{"palette":[{"0":1,"1":2,"2":3,"length":3}]}', 'palette[0] must be [r, g, b] with 0 to 255 each'],
      ['{"links":[1]}', 'metadata.links[0] must be an object'],
      ['{"links":[{},[]]}', 'metadata.links[1] must be an object'],
      ['{"links":[{"href":{}}]}', 'metadata.links[0].href must be text'],
      ['{"links":[{"dataset":[]}]}', 'metadata.links[0].dataset must be text'],
      ['{"links":[{"label":{}}]}', 'metadata.links[0].label must be text'],
      ['{"related_table":{"columns":[{"name":"a","links":[{},{"href":[]}]}]}}', 'related_table.columns[0].links[1].href must be text'],
      ['{"related_table":{"columns":[{"name":"a","description":{}}]}}', 'related_table.columns[0].description must be text'],
      ['{"related_table":{"aggregates":[{"name":"a","post_process":"eval"}]}}', "related_table.aggregates[0].post_process 'eval' is unknown (json_parse is the one named post-process)"],
      ['{"related_table":{"aggregates":[{"name":"a","post_process_expr":"value =>"}]}}', 'related_table.aggregates[0].post_process_expr: The expression does not parse: Expected expression after => at character 8'],
    ];
    for (const [text, why] of cases) expect(parseMetadata(text), text).toStrictEqual({ ok: false, reason: 'malformed', message: METADATA_NOT_WELL_FORMED, detail: `${why}: ${text}` });
  });

  it('quotes at most 500 characters of the text', () => {
    const base = '{"name":{},"pad":"';
    const exact = `${base}${'x'.repeat(500 - base.length - 2)}"}`;
    expect(exact).toHaveLength(500);
    expect(detail(exact)).toBe(`metadata.name must be text: ${exact}`);
    const longer = `${base}${'x'.repeat(600)}"}`;
    expect(detail(longer)).toBe(`metadata.name must be text: ${longer.slice(0, 500)}…`);
  });

  it('reads post-processes by name in any case and spacing, and no post-process when both are blank', () => {
    const metadata = ok(JSON.stringify({ related_table: { columns: [{ name: 'a', post_process: ' JSON_Parse ' }, { name: 'b', post_process: ' ', post_process_expr: '  ' }, { name: 'c', post_process: 'json_parse', post_process_expr: ' ' }] } }));
    const [a, b, c] = metadata.columns;
    expect(b?.postProcess).toBeNull();
    expect(columnValue({ a: '[1]' }, null, a!)).toStrictEqual([1]);
    expect(columnValue({ c: '{"x":2}' }, null, c!)).toStrictEqual({ x: 2 });
    // a value the post-process fails on is shown as it came; a missing one stays missing
    expect(columnValue({ a: 'not json' }, null, a!)).toBe('not json');
    expect(columnValue({}, null, a!)).toBeUndefined();
    expect(columnValue({ 'm.a': '[2]', a: '[1]' }, 'm', a!)).toStrictEqual([2]);
    expect(columnValue({ b: '[1]' }, null, b!)).toBe('[1]');
    // a missing value is not post-processed, even by an expression that would make one up
    const [d] = ok(JSON.stringify({ related_table: { columns: [{ name: 'd', post_process_expr: 'v => v ?? "none"' }] } })).columns;
    expect(columnValue({ d: null }, null, d!)).toBe('none');
    expect(columnValue({}, null, d!)).toBeUndefined();
  });
});

describe('where a column is found (by hand)', () => {
  it('rawColumnValue: own keys only, qualified first, nothing for a row that is not an object', () => {
    expect(rawColumnValue(null as unknown as Record<string, unknown>, 'c', 'a')).toBeUndefined();
    expect(rawColumnValue('a' as unknown as Record<string, unknown>, null, 'length')).toBeUndefined();
    expect(rawColumnValue({ 'c.a': 0, a: 1 }, 'c', 'a')).toBe(0);
    expect(rawColumnValue({ 'c.a': 0, a: 1 }, null, 'a')).toBe(1);
    expect(rawColumnValue({ 'null.a': 0 }, null, 'a')).toBeUndefined();
    expect(rawColumnValue(Object.create({ a: 1 }) as Record<string, unknown>, null, 'a')).toBeUndefined();
    expect(rawColumnValue(Object.create({ 'c.a': 1 }) as Record<string, unknown>, 'c', 'a')).toBeUndefined();
  });

  it('columnKey: the qualified key, else the plain one, else null', () => {
    expect(columnKey({ 'c.m': 1, m: 2 }, 'c', 'm')).toBe('c.m');
    expect(columnKey({ m: 2 }, 'c', 'm')).toBe('m');
    expect(columnKey({}, 'c', 'm')).toBeNull();
    expect(columnKey({ 'c.m': 1 }, null, 'm')).toBeNull();
    expect(columnKey({ 'null.m': 1 }, null, 'm')).toBeNull();
    expect(columnKey(Object.create({ m: 1 }) as Record<string, unknown>, null, 'm')).toBeNull();
  });

  it('columnLabels: under the first row’s keys, else the column names', () => {
    const metadata = ok('{"name":"c","related_table":{"columns":[{"name":"m","label":"Month"}],"aggregates":[{"name":"v","label":"Visitors"},{"name":"w"}]}}');
    expect(columnLabels(metadata, [])).toStrictEqual(new Map([['m', 'Month'], ['v', 'Visitors'], ['w', 'w']]));
    expect(columnLabels(metadata, [{ 'c.m': 1, 'c.v': 2 }, { w: 3 }])).toStrictEqual(new Map([['c.m', 'Month'], ['c.v', 'Visitors'], ['w', 'w']]));
  });
});
