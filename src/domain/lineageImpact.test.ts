import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutOffChanges, hasDownstream, impactOf, impactSentence, mayCutOff, saveWarningTitle, withImpact } from './lineageImpact';
import { hostileString } from './hostile.fixture';

describe('impactSentence', () => {
  it('names datasets and dashboards, singular and plural', () => {
    expect(impactSentence({ datasets: ['Orders by day'], dashboards: ['Shop'] })).toBe('Affected: dataset Orders by day; dashboard Shop.');
    expect(impactSentence({ datasets: ['A', 'B'], dashboards: [] })).toBe('Affected: datasets A, B.');
    expect(impactSentence({ datasets: [], dashboards: ['X', 'Y'] })).toBe('Affected: dashboards X, Y.');
    expect(impactSentence({ datasets: [], dashboards: [] })).toBe('');
  });

  it('withImpact leaves a message alone when nothing is downstream', () => {
    expect(withImpact('Job of p ended ERROR.', { datasets: [], dashboards: [] })).toBe('Job of p ended ERROR.');
    expect(withImpact('Job of p ended ERROR.', { datasets: ['D'], dashboards: [] })).toBe('Job of p ended ERROR. Affected: dataset D.');
  });

  it('names every dataset and dashboard in order, and is empty exactly when nothing is downstream (property)', () => {
    const names = fc.array(fc.oneof(hostileString, fc.string({ minLength: 1 })), { maxLength: 5 });
    fc.assert(
      fc.property(names, names, (datasets, dashboards) => {
        const sentence = impactSentence({ datasets, dashboards });
        expect(sentence === '').toBe(!hasDownstream({ datasets, dashboards }));
        let from = 0;
        for (const name of [...datasets, ...dashboards]) {
          const at = sentence.indexOf(name, from);
          expect(at).toBeGreaterThanOrEqual(0);
          from = at + name.length;
        }
        if (sentence !== '') expect(sentence).toMatch(/^Affected: [\s\S]*\.$/);
      }),
    );
  });
});

describe('mayCutOff and cutOffChanges', () => {
  const before = { name: 'Shop', properties: { 'target-store.table_prefix': 'shop_', 'tap-demo._select': ['orders.*', 'customers.*'], 'tap-demo.seed': 1 } };

  it('asks only for a new name, table prefix or stream selection', () => {
    expect(mayCutOff(before, { ...before })).toBe(false);
    expect(mayCutOff(before, { ...before, name: ' Shop ' })).toBe(false);
    expect(mayCutOff(before, { ...before, properties: { ...before.properties, 'tap-demo.seed': 2 } })).toBe(false);
    expect(mayCutOff(before, { ...before, name: 'Shop 2' })).toBe(true);
    expect(mayCutOff(before, { ...before, properties: { ...before.properties, 'target-store.table_prefix': 'sales_' } })).toBe(true);
    expect(mayCutOff(before, { ...before, properties: { ...before.properties, 'tap-demo._select': ['orders.*'] } })).toBe(true);
  });

  it('names each change, and only streams its tables hold that are no longer selected', () => {
    const after = { name: 'Sales', properties: { 'target-store.table_prefix': 'sales_', 'tap-demo._select': ['orders.*', 'web_sessions.*'] } };
    expect(cutOffChanges(before, after, ['orders', 'customers'])).toEqual(['renames the pipeline', 'changes its table prefix', 'deselects the stream customers']);
    // more streams selected: nothing cut off
    expect(cutOffChanges(before, { ...before, properties: { ...before.properties, 'tap-demo._select': ['*.*'] } }, ['orders', 'customers'])).toEqual([]);
    // no rules before select everything; rules as JSON text are read too
    expect(cutOffChanges({ name: 'a', properties: {} }, { name: 'a', properties: { 'tap-demo._select': '["orders.*"]' } }, ['orders', 'customers', 'web_sessions'])).toEqual(['deselects the streams customers, web_sessions']);
    expect(saveWarningTitle(['renames the pipeline', 'changes its table prefix'])).toBe('This save renames the pipeline and changes its table prefix. Its runs feed these:');
    expect(saveWarningTitle(['renames the pipeline'])).toBe('This save renames the pipeline. Its runs feed these:');
  });

  it('a change cutOffChanges names is one mayCutOff asks about (property)', () => {
    const values = fc.record({
      name: fc.constantFrom('Shop', 'Sales', null),
      properties: fc.dictionary(fc.constantFrom('target-store.table_prefix', 'tap-demo._select', 'tap-demo.seed'), fc.oneof(fc.constantFrom('shop_', 'sales_'), fc.constant(['orders.*']), fc.constant(['*.*', '!customers.*']), fc.integer())),
    });
    fc.assert(
      fc.property(values, values, fc.subarray(['orders', 'customers', 'web_sessions']), (a, b, streams) => {
        if (cutOffChanges(a, b, streams).length > 0) expect(mayCutOff(a, b)).toBe(true);
        expect(cutOffChanges(a, a, streams)).toEqual([]);
      }),
    );
  });
});

describe('impactOf', () => {
  it('takes the titles of the datasets and dashboards a pipeline’s lineage lists', () => {
    expect(impactOf({ datasets: [{ title: 'A' }, { title: 'B' }], dashboards: [{ title: 'Board' }] })).toEqual({ datasets: ['A', 'B'], dashboards: ['Board'] });
  });
});

describe('mayCutOff and cutOffChanges at their edges', () => {
  it('compares names trimmed on both sides, a missing name as an empty one', () => {
    expect(mayCutOff({ name: ' Shop' }, { name: 'Shop' })).toBe(false);
    expect(mayCutOff({ name: null }, { name: '' })).toBe(false);
    expect(mayCutOff({ name: '' }, { name: undefined })).toBe(false);
    expect(cutOffChanges({ name: ' Shop ' }, { name: 'Shop' }, [])).toEqual([]);
    expect(cutOffChanges({ name: 'Shop' }, { name: 'Shop ' }, [])).toEqual([]);
  });

  it('reads missing properties on either side as none', () => {
    expect(mayCutOff({ name: 'a' }, { name: 'a', properties: { 'store.table_prefix': 'p_' } })).toBe(true);
    expect(mayCutOff({ name: 'a', properties: null }, { name: 'a', properties: { 'store.table_prefix': 'p_' } })).toBe(true);
    expect(mayCutOff({ name: 'a', properties: { 'store.table_prefix': 'p_' } }, { name: 'a' })).toBe(true);
    expect(cutOffChanges({ name: 'a' }, { name: 'a', properties: { 'tap._select': ['orders.*'] } }, ['orders', 'customers'])).toEqual(['deselects the stream customers']);
    expect(cutOffChanges({ name: 'a', properties: { 'tap._select': ['orders.*'] } }, { name: 'a' }, ['orders', 'customers'])).toEqual([]);
  });

  it('counts a stream the rules chose before, not one they left out already, and names them sorted', () => {
    expect(cutOffChanges({ name: 'a', properties: { 'tap._select': ['orders.*'] } }, { name: 'a', properties: { 'tap._select': ['customers.*'] } }, ['orders', 'customers', 'web'])).toEqual(['deselects the stream orders']);
    expect(cutOffChanges({ name: 'a', properties: {} }, { name: 'a', properties: { 'tap._select': ['orders.*'] } }, ['web_sessions', 'customers'])).toEqual(['deselects the streams customers, web_sessions']);
  });

  it('joins three changes with commas and a last "and"', () => {
    expect(saveWarningTitle(['renames the pipeline', 'changes its table prefix', 'deselects the stream orders'])).toBe(
      'This save renames the pipeline, changes its table prefix and deselects the stream orders. Its runs feed these:',
    );
  });
});
