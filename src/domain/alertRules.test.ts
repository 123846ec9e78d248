import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertRuleInputSchema, alertRulesWriteSchema, breachDetail, breachingValue, numericValue, ruleText, type AlertOperator } from './alertRules';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';

const operators: AlertOperator[] = ['>', '>=', '<', '<='];

describe('breachingValue', () => {
  it('finds the first value that crosses the threshold', () => {
    const rows = [{ total: 5 }, { total: '150.5' }, { total: 300 }];
    expect(breachingValue({ column: 'total', operator: '>', threshold: 100 }, rows)).toBe(150.5);
    expect(breachingValue({ column: 'total', operator: '<', threshold: 10 }, rows)).toBe(5);
    expect(breachingValue({ column: 'total', operator: '>=', threshold: 300 }, rows)).toBe(300);
    expect(breachingValue({ column: 'total', operator: '<=', threshold: 4 }, rows)).toBeUndefined();
  });

  it('never breaches on a missing column, text, null or an inherited property', () => {
    const rows = [{ total: null }, { total: 'many' }, { other: 1000 }, Object.create({ total: 1000 }) as Record<string, unknown>];
    expect(breachingValue({ column: 'total', operator: '>', threshold: 0 }, rows)).toBeUndefined();
    expect(breachingValue({ column: '__proto__', operator: '>', threshold: -1 }, [{}])).toBeUndefined();
    expect(breachingValue({ column: 'constructor', operator: '>', threshold: -1 }, [{}])).toBeUndefined();
  });

  it('agrees with the comparison it names, for any rows (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom('a', 'b', 'total'), fc.oneof(fc.double(), fc.integer(), hostileString, fc.constant(null)))), fc.constantFrom(...operators), fc.double({ noNaN: true }), (rows, operator, threshold) => {
        const value = breachingValue({ column: 'total', operator, threshold }, rows);
        const numbers = rows.filter((r) => Object.prototype.hasOwnProperty.call(r, 'total')).map((r) => numericValue(r.total)).filter((n) => n !== undefined);
        const crosses = (n: number) => (operator === '>' ? n > threshold : operator === '>=' ? n >= threshold : operator === '<' ? n < threshold : n <= threshold);
        expect(value).toBe(numbers.find(crosses));
      }),
    );
  });
});

describe('numericValue', () => {
  it('reads numbers and numeric text only', () => {
    expect(numericValue(3)).toBe(3);
    expect(numericValue('-2.5')).toBe(-2.5);
    expect(numericValue('1e3')).toBe(1000);
    expect(numericValue(Infinity)).toBeUndefined();
    expect(numericValue('12abc')).toBeUndefined();
    expect(numericValue('')).toBeUndefined();
    expect(numericValue({ valueOf: () => 5 })).toBeUndefined();
  });

  it('never throws and returns a finite number or nothing on hostile text (property)', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        const n = numericValue(text);
        expect(n === undefined || Number.isFinite(n)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('rule input', () => {
  it('accepts a column, an operator and a finite number; refuses the rest with the messages', () => {
    expect(alertRuleInputSchema.parse({ column: ' total ', operator: '>=', threshold: 2 })).toEqual({ column: 'total', operator: '>=', threshold: 2 });
    const bad = alertRuleInputSchema.safeParse({ column: '', operator: '!=', threshold: '5' });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(messages).toEqual(expect.arrayContaining([['column', 'Column is mandatory'], ['operator', 'must be one of >, >=, <, <='], ['threshold', 'Threshold must be a number']]));
    expect(alertRulesWriteSchema.safeParse({ rules: Array.from({ length: 11 }, () => ({ column: 'a', operator: '>', threshold: 1 })) }).success).toBe(false);
  });

  it('parses or refuses any hostile input without throwing (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const parsed = alertRulesWriteSchema.safeParse(input);
        if (parsed.success) for (const rule of parsed.data.rules) expect(Number.isFinite(rule.threshold)).toBe(true);
      }),
    );
  });

  it('describes a rule and its breach in words', () => {
    expect(ruleText({ column: 'total', operator: '<', threshold: 3 })).toBe('total < 3');
    expect(breachDetail({ column: 'total', operator: '<', threshold: 3 }, 1)).toBe('Rule total < 3 crossed: total is 1.');
  });
});

describe('alert rules at their edges (mutation testing, issue 40)', () => {
  it('a value equal to the threshold crosses >= and <= only', () => {
    const at = (operator: AlertOperator) => breachingValue({ column: 'v', operator, threshold: 7 }, [{ v: 7 }]);
    expect([at('>'), at('>='), at('<'), at('<=')]).toEqual([undefined, 7, undefined, 7]);
    expect(breachingValue({ column: 'v', operator: '>', threshold: 7 }, [{ v: 8 }])).toBe(8);
    expect(breachingValue({ column: 'v', operator: '<', threshold: 7 }, [{ v: 6 }])).toBe(6);
  });

  it('reads numbers written as PostgreSQL and JSON write them, and nothing that merely holds one', () => {
    expect(numericValue(12n)).toBe(12);
    expect(numericValue(' 5 ')).toBe(5);
    expect(numericValue('.25')).toBe(0.25);
    expect(numericValue('1e+3')).toBe(1000);
    expect(numericValue('2.5E-3')).toBe(0.0025);
    expect(numericValue('2e10')).toBe(20_000_000_000);
    // JavaScript's Number would read these; a cell holding them is no number here
    for (const cell of ['0x10', '0b1', '0o7', 'x5', '5x', [5], ['5'], true]) expect(numericValue(cell)).toBeUndefined();
  });
});
