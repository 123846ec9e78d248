import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../hostile.fixture';
import { METADATA_NOT_WELL_FORMED, METADATA_UNPARSEABLE } from './messages';
import { columnLabels, columnValue, parseMetadata, rawColumnValue, type DatasetMetadata } from './metadata';

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
