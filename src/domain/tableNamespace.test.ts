import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from './hostile.fixture';
import { defaultTablePrefix, MAX_TABLE_PREFIX, pipelinesSharingTables, sharedTablesField, TABLE_PREFIX_MESSAGES, tablePrefixError, type PipelineDestination } from './tableNamespace';

describe('table prefixes', () => {
  it('names a new pipeline its prefix from its name, numbered past the taken ones', () => {
    expect(defaultTablePrefix('Demo sales data', [])).toBe('demo_sales_data_');
    expect(defaultTablePrefix('UX demo import', ['ux_demo_import_'])).toBe('ux_demo_import_2_');
    expect(defaultTablePrefix('UX demo import', ['ux_demo_import_', 'ux_demo_import_2_'])).toBe('ux_demo_import_3_');
    expect(defaultTablePrefix('2026 orders', [])).toBe('p2026_orders_');
    expect(defaultTablePrefix('Café ☕ — Ventes', [])).toBe('cafe_ventes_');
    expect(defaultTablePrefix('☕☕', [])).toBe('pipeline_');
    // only a leading digit is prefixed; a name cut at 25 characters loses its trailing '_'
    expect(defaultTablePrefix('Orders 2026', [])).toBe('orders_2026_');
    expect(defaultTablePrefix('abcdefghijklmnopqrstuvwx yz', [])).toBe('abcdefghijklmnopqrstuvwx_');
  });

  it('accepts the empty prefix and identifiers; refuses anything else', () => {
    for (const ok of ['', 'demo_', '_x', 'a1_b2', 'a'.repeat(MAX_TABLE_PREFIX)]) expect(tablePrefixError(ok)).toBeUndefined();
    for (const bad of ['Demo_', '1a', 'a-b', 'a b', 'a;drop table x', '"x"', 'a'.repeat(MAX_TABLE_PREFIX + 1), 7, null, undefined, ['a']]) expect(tablePrefixError(bad)).toBeDefined();
  });

  it('a default prefix is always a valid one and never one already taken, whatever the name', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, fc.array(fc.string({ maxLength: 12 }), { maxLength: 5 }), (name, extra) => {
        const first = defaultTablePrefix(name, extra);
        const taken = [...extra, first];
        const second = defaultTablePrefix(name, taken);
        for (const prefix of [first, second]) {
          expect(tablePrefixError(prefix)).toBeUndefined();
          expect(prefix).not.toBe('');
        }
        expect(extra).not.toContain(first);
        expect(taken).not.toContain(second);
      }),
      { numRuns: 300 },
    );
  });
});

describe('pipelines sharing tables', () => {
  const demo: PipelineDestination = { name: 'Demo sales data', loader: 'target-store', prefix: '', extractors: ['tap-demo'] };
  const files: PipelineDestination = { name: 'Reference files', loader: 'target-store', prefix: '', extractors: ['tap-files'] };

  it('finds the pipeline of the same extractor, loader and prefix, and only that one', () => {
    const second = { ...demo, name: 'UX demo import' };
    expect(pipelinesSharingTables(second, [demo, files]).map((p) => p.name)).toEqual(['Demo sales data']);
    expect(pipelinesSharingTables({ ...second, prefix: 'ux_demo_import_' }, [demo, files])).toEqual([]);
    expect(pipelinesSharingTables({ ...second, loader: 'warehouse' }, [demo, files])).toEqual([]);
    expect(pipelinesSharingTables(files, [demo])).toEqual([]);
  });

  it('is symmetric: when A shares with B, B shares with A', () => {
    const destination = fc.record({
      name: fc.string(),
      loader: fc.constantFrom('target-store', 'warehouse'),
      prefix: fc.constantFrom('', 'a_', 'b_'),
      extractors: fc.subarray(['tap-demo', 'tap-files', 'tap-postgres']),
    });
    fc.assert(
      fc.property(destination, destination, (a, b) => {
        expect(pipelinesSharingTables(a, [b]).length).toBe(pipelinesSharingTables(b, [a]).length);
      }),
    );
  });
});

describe('the question the form asks', () => {
  it('recognises the shared-tables error of a prefix field, and nothing else', () => {
    expect(sharedTablesField({ name: 'taken', 'properties.target-store.table_prefix': TABLE_PREFIX_MESSAGES.shared('Demo', '') })).toBe('properties.target-store.table_prefix');
    expect(sharedTablesField({ 'properties.target-store.table_prefix': TABLE_PREFIX_MESSAGES.invalid })).toBeUndefined();
    expect(sharedTablesField({ 'properties.tap-demo.seed': TABLE_PREFIX_MESSAGES.shared('Demo', '') })).toBeUndefined();
    expect(sharedTablesField({})).toBeUndefined();
  });
});

describe('the shared-tables message', () => {
  const tail = 'from another extractor: a run of either would overwrite the other\'s rows. Choose another prefix, or confirm that they share these tables.';
  it('names one table, a few, or five and how many more', () => {
    expect(TABLE_PREFIX_MESSAGES.sharedTables('Demo', ['orders'])).toBe(`Pipeline 'Demo' already loads into the table 'orders', ${tail}`);
    expect(TABLE_PREFIX_MESSAGES.sharedTables('Demo', ['a', 'b'])).toBe(`Pipeline 'Demo' already loads into the tables 'a' and 'b', ${tail}`);
    expect(TABLE_PREFIX_MESSAGES.sharedTables('Demo', ['a', 'b', 'c', 'd', 'e'])).toBe(`Pipeline 'Demo' already loads into the tables 'a', 'b', 'c', 'd' and 'e', ${tail}`);
    expect(TABLE_PREFIX_MESSAGES.sharedTables('Demo', ['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe(`Pipeline 'Demo' already loads into the tables 'a', 'b', 'c', 'd', 'e' and 2 more, ${tail}`);
    expect(sharedTablesField({ 'properties.target-store.table_prefix': TABLE_PREFIX_MESSAGES.sharedTables('Demo', ['a']) })).toBe('properties.target-store.table_prefix');
  });
  it('names the prefix, or unprefixed tables', () => {
    expect(TABLE_PREFIX_MESSAGES.shared('Demo', 'demo_')).toBe("Pipeline 'Demo' already loads the same data into tables starting with 'demo_': a run of either would overwrite the other's rows. Choose another prefix, or confirm that they share these tables.");
    expect(TABLE_PREFIX_MESSAGES.shared('Demo', '')).toBe("Pipeline 'Demo' already loads the same data into unprefixed tables: a run of either would overwrite the other's rows. Choose another prefix, or confirm that they share these tables.");
  });
  it('names every table up to five, and counts the rest (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 12 }), (tables) => {
        const message = TABLE_PREFIX_MESSAGES.sharedTables('P', tables);
        for (const [i, t] of tables.entries()) expect(message.includes(`'${t}'`)).toBe(i < 5);
        expect(message.includes(' more, ')).toBe(tables.length > 5);
        if (tables.length > 5) expect(message).toContain(` and ${tables.length - 5} more, `);
      }),
    );
  });
});
