import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../hostile.fixture';
import { compileExpression, EXPRESSION_STEP_BUDGET, ExpressionError } from './expression';

const run = (text: string, value: unknown) => compileExpression(text)(value);

describe('compileExpression: what post_process_expr may do', () => {
  it.each([
    ['value => value.toUpperCase()', 'abc', 'ABC'],
    ['JSON.parse', '{"a":[1,2]}', { a: [1, 2] }],
    ['value => JSON.parse(value).a.map(x => x * 2).join("-")', '{"a":[1,2]}', '2-4'],
    ['v => v ?? "none"', null, 'none'],
    ['(value * 2).toFixed(1)', 3.14159, '6.3'],
    ['Math.max(1, value, 3)', 9, 9],
    ['Math.round(value / 1000)', 152300, 152],
    ['value => value.split(",").filter(s => s.trim() !== "").length', 'a, ,b', 2],
    ['value => value.replace("$&", "$1")', 'a$&b', 'a$1b'],
    ['value => value.startsWith("x") ? "yes" : "no"', 'xy', 'yes'],
    ['value => value.a["b c"]', { a: { 'b c': 7 } }, 7],
    ['value => [value, value].length', 1, 2],
    ['Number', '12.5', 12.5],
    ['value => parseInt(value, 16)', 'ff', 255],
    ['value => String(value).slice(0, 3)', 12345, '123'],
    ['value => !value || value.length === 0', '', true],
    ['value => value.missing', { present: 1 }, undefined],
  ])('%s of %j is %j', (text, value, expected) => {
    expect(run(text, value)).toEqual(expected);
  });

  it.each([
    ['value.constructor', 'x'],
    ['value => value.__proto__', {}],
    ['value => value["__proto__"]', {}],
    ['value => value["const" + "ructor"]', {}],
    ['value => value.prototype', {}],
    ['value => value.toString', {}],
    ['value => value.hasOwnProperty("a")', { a: 1 }],
    ['value => value.constructor.constructor("return process")()', 'x'],
    ['value => value.toUpperCase.call(value)', 'x'],
    ['value => value.repeat(1e9)', 'x'],
    ['value => value.padStart(1e9)', 'x'],
    ['this', 1],
    ['process', 1],
    ['globalThis', 1],
    ['Function("return 1")', 1],
    ['eval("1")', 1],
    ['Object.keys(value)', {}],
    ['JSON.stringify(value)', {}],
    ['Math.random()', 1],
    ['value => value + {}', 1],
    ['value => [] + value', 1],
    ['value => value.replace("a", x => x)', 'a'],
    ['value => value.map(String.constructor)', [1]],
    ['value => value => value', 1],
    ['a, b', 1],
    ['value => ~value', 1],
    ['value => ', 1],
    ['', 1],
  ])('refuses %s', (text, value) => {
    expect(() => run(text, value)).toThrow(ExpressionError);
  });

  it('refuses an own "constructor" key that JSON gave a row, and never reaches Object', () => {
    expect(() => run('value => JSON.parse(value).constructor', '{"constructor": 1}')).toThrow(ExpressionError);
    expect(() => run('value => JSON.parse(value).__proto__', '{"__proto__": {"polluted": 1}}')).toThrow(ExpressionError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops a runaway map within its budget', () => {
    const big = Array.from({ length: 5_000 }, (_, i) => i);
    expect(() => run('value => value.map(a => value.map(b => a + b))', big)).toThrow(/step budget/);
  });

  it('stops a huge string before building it', () => {
    const text = 'value => value + value + value + value';
    expect(() => run(text, 'x'.repeat(400_000))).toThrow(/too long/);
  });

  it('refuses over-long or deeply nested text as its own error (no stack overflow escapes)', () => {
    expect(() => compileExpression('1+'.repeat(2_000) + '1')).toThrow(ExpressionError);
    expect(() => run('['.repeat(900) + 'value' + ']'.repeat(900), 1)).toThrow(/nests too deeply/);
    expect(run('(((value)))', 1)).toBe(1);
  });
});

describe('compileExpression on hostile input (property)', () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort().join();
  const fragments = fc.constantFrom('value', '.', '[', ']', '(', ')', '=>', 'x', '"__proto__"', 'constructor', 'prototype', '__proto__', 'toString', 'valueOf', 'JSON', 'parse', 'Math', 'max', 'map', 'filter', 'join', 'split', ',', '+', '*', '?', ':', '!', '1', '"a"', '1e308', 'Function', 'this', 'new ', 'eval', '`', '=', ' ');
  const expressions = fc.oneof(hostileString, fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join('')));
  const values = fc.oneof(fc.jsonValue(), hostileString, fc.constant({ ['__proto__']: { polluted: true } }));

  it('never throws anything but ExpressionError, never touches prototypes, always ends', () => {
    fc.assert(
      fc.property(expressions, values, (text, value) => {
        const started = Date.now();
        try {
          compileExpression(text, EXPRESSION_STEP_BUDGET)(value);
        } catch (error) {
          expect(error).toBeInstanceOf(ExpressionError);
        }
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(Object.getOwnPropertyNames(Object.prototype).sort().join()).toBe(protoBefore);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 1_000 },
    );
  });

  it('member chains over any JSON value read only own data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.oneof(fc.constantFrom('constructor', '__proto__', 'prototype', 'toString', 'length', '0'), fc.string()), { maxLength: 5 }), (value, path) => {
        const text = `value => value${path.map((key) => `[${JSON.stringify(key)}]`).join('')}`;
        try {
          const result = run(text, value);
          expect(typeof result).not.toBe('function');
        } catch (error) {
          expect(error).toBeInstanceOf(ExpressionError);
        }
      }),
    );
  });
});
