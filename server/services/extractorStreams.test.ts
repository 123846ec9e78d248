import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../../src/domain/hostile.fixture';
import { TABLE_PREFIX_MESSAGES, sharedTablesField } from '../../src/domain/tableNamespace';
import { DEMO_STREAMS } from '../plugins/taps/demoData';
import { safeIdentifier, tableNameOf } from '../stores/tableShape';
import { knownStreams, tablesInCommon } from './extractorStreams';

const builtin = (name: string) => ({ name, variant: 'builtin' });
const settings = (values: Record<string, unknown>) => (name: string) => (Object.hasOwn(values, name) ? values[name] : undefined);

describe("an extractor's streams, where they are known before it runs", () => {
  it("knows tap-demo's streams, tap-postgres's listed tables and tap-files's named files", () => {
    expect(knownStreams(builtin('tap-demo'), settings({}))).toEqual(Object.keys(DEMO_STREAMS));
    expect(knownStreams({ name: 'tap-demo', variant: null }, settings({}))).toEqual(['customers', 'orders', 'web_sessions']);
    expect(knownStreams(builtin('tap-postgres'), settings({ tables: ['orders', 'items'] }))).toEqual(['public-orders', 'public-items']);
    expect(knownStreams(builtin('tap-postgres'), settings({ schema: 'sales', tables: '["orders"]' }))).toEqual(['sales-orders']);
    expect(knownStreams(builtin('tap-files'), settings({ paths: ['data/Orders.CSV', 'more/', 'x.ndjson', 'notes.txt'] }))).toEqual(['orders', 'x']);
    expect(knownStreams(builtin('tap-files'), settings({ paths: 'orders.csv' }))).toEqual(['orders']);
  });

  it('knows nothing where the plugin tells nothing: all of a schema, a directory, a Python plugin', () => {
    expect(knownStreams(builtin('tap-postgres'), settings({}))).toEqual([]);
    expect(knownStreams(builtin('tap-files'), settings({ paths: ['data'] }))).toEqual([]);
    expect(knownStreams({ name: 'tap-github', variant: 'meltanolabs' }, settings({ repositories: ['a/b'] }))).toEqual([]);
    expect(knownStreams({ name: 'tap-demo', variant: 'someone-else' }, settings({}))).toEqual([]);
    expect(knownStreams(builtin('tap-postgres'), settings({ tables: 7 }))).toEqual([]);
  });
});

describe('tables two pipelines would both write', () => {
  it('finds the same table from different extractors, also through folding and across prefixes', () => {
    expect(tablesInCommon({ prefix: 'sales_', streams: ['customers', 'orders', 'web_sessions'] }, { prefix: 'sales_', streams: ['orders', 'refunds'] })).toEqual(['sales_orders']);
    expect(tablesInCommon({ prefix: '', streams: ['orders'] }, { prefix: '', streams: ['Orders!'] })).toEqual(['orders']);
    // a prefix is only the start of a name: '' + 'a_orders' is 'a_' + 'orders'
    expect(tablesInCommon({ prefix: '', streams: ['a_orders'] }, { prefix: 'a_', streams: ['orders'] })).toEqual(['a_orders']);
    expect(tablesInCommon({ prefix: 'a_', streams: ['orders'] }, { prefix: 'b_', streams: ['orders'] })).toEqual([]);
    expect(tablesInCommon({ prefix: 'a_', streams: [] }, { prefix: 'a_', streams: ['orders'] })).toEqual([]);
  });

  it('names the tables in a message the form turns into the sharing question', () => {
    const message = TABLE_PREFIX_MESSAGES.sharedTables('Shop import', ['sales_orders']);
    expect(message).toMatch(/^Pipeline 'Shop import' already loads into the table 'sales_orders', from another extractor/);
    expect(sharedTablesField({ 'properties.target-store.table_prefix': message })).toBe('properties.target-store.table_prefix');
    expect(TABLE_PREFIX_MESSAGES.sharedTables('P', ['a', 'b'])).toContain("the tables 'a' and 'b'");
    expect(TABLE_PREFIX_MESSAGES.sharedTables('P', ['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toContain("the tables 'a', 'b', 'c', 'd', 'e' and 2 more");
  });

  const prefix = fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/));
  const streams = fc.array(fc.oneof(hostileString, fc.constantFrom('orders', 'Orders', 'orders ', '__proto__', 'constructor', '', '😀', 'a'.repeat(80))), { maxLength: 6 });

  it('is exactly the tables both would write, whatever the stream names (symmetric, never a table only one writes)', () => {
    fc.assert(
      fc.property(prefix, streams, prefix, streams, (pa, sa, pb, sb) => {
        const a = { prefix: pa, streams: sa };
        const b = { prefix: pb, streams: sb };
        const common = tablesInCommon(a, b);
        expect(common).toEqual(tablesInCommon(b, a));
        const written = (d: typeof a) => new Set(d.streams.map((s) => tableNameOf(s, d.prefix)));
        const [wa, wb] = [written(a), written(b)];
        expect(new Set(common)).toEqual(new Set([...wa].filter((t) => wb.has(t))));
        expect(new Set(common).size).toBe(common.length);
      }),
    );
  });

  it('always finds the clash of one stream name under the same prefix, whatever the name', () => {
    fc.assert(
      fc.property(prefix, hostileString, fc.array(hostileString, { maxLength: 3 }), fc.array(hostileString, { maxLength: 3 }), (p, name, more, others) => {
        const common = tablesInCommon({ prefix: p, streams: [...more, name] }, { prefix: p, streams: [name, ...others] });
        expect(common).toContain(tableNameOf(name, p));
        // and the table is a safe identifier, so naming it in a message is safe too
        expect(tableNameOf(name, p)).toMatch(/^[a-z_][a-z0-9_]*$/);
        expect(safeIdentifier(name)).not.toBe('');
      }),
    );
  });
});
