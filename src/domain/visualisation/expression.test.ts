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
    // a string's toString is the string, whatever it is given
    ['value => value.toString(2)', 'abc', 'abc'],
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

describe('compileExpression: each allowed method and operator, by hand', () => {
  it.each([
    // string methods
    ['value => value.toLowerCase()', 'AbC', 'abc'],
    ['value => value.trim()', '  a b  ', 'a b'],
    ['value => value.trimStart()', '  a  ', 'a  '],
    ['value => value.trimEnd()', '  a  ', '  a'],
    ['value => value.toString()', 'x', 'x'],
    ['value => value.slice(1)', 'abcd', 'bcd'],
    ['value => value.slice(-2)', 'abcd', 'cd'],
    ['value => value.slice(1, 3)', 'abcd', 'bc'],
    ['value => value.slice()', 'abcd', 'abcd'],
    ['value => value.slice(1.9)', 'abcd', 'bcd'],
    ['value => value.substring(2)', 'abcd', 'cd'],
    ['value => value.substring()', 'abcd', 'abcd'],
    ['value => value.substring(1, 2)', 'abcd', 'b'],
    ['value => value.charAt(2)', 'abcd', 'c'],
    ['value => value.charAt()', 'abcd', 'a'],
    ['value => value.at(-1)', 'abcd', 'd'],
    ['value => value.at()', 'abcd', 'a'],
    ['value => value.includes("bc")', 'abcd', true],
    ['value => value.includes("x")', 'abcd', false],
    ['value => value.startsWith("b")', 'abcd', false],
    ['value => value.endsWith("cd")', 'abcd', true],
    ['value => value.endsWith("c")', 'abcd', false],
    ['value => value.indexOf("c")', 'abcd', 2],
    ['value => value.replaceAll("a", "$$")', 'aXa', '$$X$$'],
    ['value => value.replace("a", "b")', 'aXa', 'bXa'],
    ['value => value.split("-")', 'a-b-c', ['a', 'b', 'c']],
    ['value => value.split("-", 2)', 'a-b-c', ['a', 'b']],
    ['value => value.split("-", -1)', 'a-b-c', []],
    ['value => value.length', 'abc', 3],
    ['value => value[1]', 'abc', 'b'],
    ['value => value[5]', 'abc', undefined],
    ['value => value["0"]', 'abc', 'a'],
    // number methods
    ['value => value.toFixed()', 2.5, '3'],
    ['value => value.toFixed(2)', 1, '1.00'],
    ['value => value.toFixed(20)', 0, '0.00000000000000000000'],
    ['value => value.toString()', 12, '12'],
    // array methods
    ['value => value.join()', [1, 'a', null], '1,a,'],
    ['value => value.join(" ")', ['a', 'b'], 'a b'],
    ['value => value.slice(1)', [1, 2, 3], [2, 3]],
    ['value => value.slice(0, 1)', [1, 2, 3], [1]],
    ['value => value.at(-1)', [1, 2, 3], 3],
    ['value => value.at()', [1, 2, 3], 1],
    ['value => value.includes(2)', [1, 2, 3], true],
    ['value => value.includes("2")', [1, 2, 3], false],
    ['value => value.indexOf(3)', [1, 2, 3], 2],
    ['value => value.map(x => x + 1)', [1, 2], [2, 3]],
    ['value => value.filter(x => x > 1)', [1, 2, 3], [2, 3]],
    ['value => value.filter(x => x)', [0, 1, '', 'a'], [1, 'a']],
    ['value => value[0]', [7, 8], 7],
    ['value => value.length', [7, 8], 2],
    // globals
    ['Math.floor', 2.7, 2],
    ['Math.ceil', 2.1, 3],
    ['Math.abs', -4, 4],
    ['Math.round', 2.5, 3],
    ['value => Math.min(value, 3, 5)', 4, 3],
    ['value => Math.max()', 1, -Infinity],
    ['value => Math.min()', 1, Infinity],
    ['value => Math.floor()', 1, Number.NaN],
    ['String', 12, '12'],
    ['String', true, 'true'],
    ['Number', true, 1],
    ['value => Number(undefined)', 1, Number.NaN],
    ['parseFloat', '2.5kg', 2.5],
    ['parseFloat', 3, 3],
    ['parseFloat', true, Number.NaN],
    ['parseInt', '12.9', 12],
    ['value => parseInt(value, 2)', '101', 5],
    ['value => parseInt(value, 2.9)', '101', 5],
    // operators
    ['value => value == "1"', 1, true],
    ['value => value != "1"', 1, false],
    ['value => value === 1', 1, true],
    ['value => value !== 1', 1, false],
    ['value => value < 2', 2, false],
    ['value => value <= 2', 2, true],
    ['value => value > 2', 2, false],
    ['value => value >= 2', 2, true],
    ['value => value > 1', 2, true],
    ['value => value < 3', 2, true],
    ['value => value - 1', 2, 1],
    ['value => value * 3', 2, 6],
    ['value => value / 4', 2, 0.5],
    ['value => value % 3', 7, 1],
    ['value ** 3', 2, 8],
    // jsep's arrow plugin alone read these as `(value => value) ** 3`
    ['value => value ** 3', 2, 8],
    ['value => 2 ** value ** 2', 3, 512],
    ['value => value.n ** 2 / 4 + 1', { n: 4 }, 5],
    ['value => [1, 2].map(v => v ** value)', 3, [1, 8]],
    ['value => value + "b"', 'a', 'ab'],
    ['value => value + 1', 1, 2],
    ['value => -value', 2, -2],
    ['value => +value', '3', 3],
    ['value => !value', 0, true],
    ['value => value && "b"', 'a', 'b'],
    ['value => value && "b"', '', ''],
    ['value => value || "b"', 'a', 'a'],
    ['value => value || "b"', 0, 'b'],
    ['value => value ?? "b"', 0, 0],
    ['value => value ?? "b"', undefined, 'b'],
    ['value => value ? 1 : 2', 0, 2],
    ['value => value === undefined', undefined, true],
    ['value => [value, , 2]', 1, [1, undefined, 2]],
    ['value => value.a', { a: null }, null],
    ['(a, b) => b', 1, undefined],
    ['value => value.a.b', { a: { b: 'x' } }, 'x'],
    ['value => value[1 + 0]', ['a', 'b'], 'b'],
  ])('%s of %j is %j', (text, value, expected) => {
    expect(run(text, value)).toEqual(expected);
  });

  it.each([
    ['value => value.slice("1")', 'abc', /expects a number argument/],
    ['value => value.slice(1 / 0)', 'abc', /expects a number argument/],
    ['value => value.includes(1)', 'abc', /includes expects a string argument/],
    ['value => value.split(1)', 'abc', /split expects a string argument/],
    ['value => value.replace("a", 1)', 'abc', /replace expects a string argument/],
    ['value => value.normalize()', 'abc', /The string method 'normalize' is not allowed/],
    ['value => value.toFixed(-1)', 1, /0 to 20 digits/],
    ['value => value.toFixed(21)', 1, /0 to 20 digits/],
    ['value => value.toPrecision(2)', 1, /The number method 'toPrecision' is not allowed/],
    ['value => value.join(1)', ['a'], /join expects a string argument/],
    ['value => value.join()', [['a']], /join expects an array of strings or numbers/],
    ['value => value.map(1)', [1], /map expects an arrow function/],
    ['value => value.filter("x")', [1], /filter expects an arrow function/],
    ['value => value.sort()', [1], /The array method 'sort' is not allowed/],
    ['value => value.a()', { a: 1 }, /'a' is not a function/],
    ['value => value.x', 'abc', /'x' may not be read here/],
    ['value => value[1.5]', [1], /must be a string or an integer/],
    ['value => value[true]', [1], /must be a string or an integer/],
    ['value => value.a', null, /Cannot read 'a' of null/],
    ['value => value.a', 3, /Cannot read 'a' of number/],
    ['value => JSON.x', 1, /JSON\.x is not allowed/],
    ['JSON.parse', 1, /JSON\.parse expects a string argument/],
    ['JSON.parse', '{', /JSON\.parse failed/],
    ['Math.abs', 'x', /Math\.abs expects numbers/],
    ['Number', [1], /Number expects a string, number or boolean/],
    ['String', {}, /String expects a string, number or boolean/],
    ['parseInt', null, /parseInt expects a string or number/],
    ['value => parseInt(value, "2")', '1', /parseInt expects a number argument/],
    ['value => -value', [1], /'-' needs a string, number or boolean/],
    ['value => value < [1]', 1, /'<' needs strings, numbers or booleans/],
    ['value => value | 1', 1, /The operator '\|' is not allowed/],
    ['value => value.constructor()', 'x', /may not be called/],
    ['value => value["__proto__"]()', {}, /may not be called/],
    ['(value)(1)', 1, /Only allowed functions may be called/],
    ['(a.b) => 1', 1, /Arrow parameters must be plain names/],
    ['value => y', 1, /Unknown name 'y'/],
    ['Math', 1, /does not produce a value/],
    ['value => JSON', 1, /does not produce a value/],
    ['value => x => x', 1, /An arrow function cannot return another arrow function/],
    ['value => value.toString', { toString: 1 }, undefined],
  ] as [string, unknown, RegExp | undefined][])('%s of %j fails with %s', (text, value, message) => {
    if (message === undefined) {
      expect(run(text, value)).toBe(1);
      return;
    }
    expect(() => run(text, value)).toThrow(message);
  });

  it('counts the steps it takes, and charges long inputs by their size', () => {
    // 'value' is one node: a budget of 1 is enough, 0 is not
    expect(compileExpression('value', 1)('x')).toBe('x');
    expect(() => compileExpression('value', 0)('x')).toThrow(/step budget/);
    // 'value => value.trim()': arrow (1) + call's member target (1) + trim on 5,000 characters (1 + 5)
    expect(compileExpression('value => value.trim()', 20)(' '.repeat(5_000))).toBe('');
    expect(() => compileExpression('value => value.trim()', 7)(' '.repeat(5_000))).toThrow(/step budget/);
    expect(() => compileExpression('JSON.parse', 3)(`[${'1,'.repeat(2_000)}1]`)).toThrow(/step budget/);
    expect(() => compileExpression('value => value.slice(0)', 3)(Array.from({ length: 3_000 }, () => 1))).toThrow(/step budget/);
  });

  it('refuses over-long text and text that does not parse, each with its reason', () => {
    expect(() => compileExpression('x'.repeat(2_001))).toThrow(/longer than 2000 characters/);
    expect(compileExpression(`value${' '.repeat(1_995)}`)(4)).toBe(4);
    expect(() => compileExpression('   ')).toThrow(/is empty/);
    expect(() => compileExpression('value +')).toThrow(/does not parse/);
  });

  it('wraps an engine error inside an allowed method as its own', () => {
    expect(() => run('value => value.split("")', 'x'.repeat(1))).not.toThrow();
    expect(() => run('value => value.replaceAll("", "ab")', 'x'.repeat(600_000))).toThrow(/too long/);
  });
});

describe('compileExpression: the edges mutation testing found', () => {
  const message = (text: string, value: unknown): string => {
    try {
      run(text, value);
    } catch (error) {
      expect(error).toBeInstanceOf(ExpressionError);
      expect((error as Error).name).toBe('ExpressionError');
      return (error as Error).message;
    }
    throw new Error(`${text} did not throw`);
  };

  it('compares, reads and indexes exactly', () => {
    expect(run('value === 2', 1)).toBe(false);
    expect(run('value == "2"', 1)).toBe(false);
    expect(run('value != 2', 3)).toBe(true);
    expect(run('value <= 3', 2)).toBe(true);
    expect(run('value <= 1', 2)).toBe(false);
    expect(run('value >= 3', 2)).toBe(false);
    expect(run('value.charAt(-1)', 'abcd')).toBe('');
    expect(run('value.charAt(9)', 'abcd')).toBe('');
    expect(run('value[-1]', [1, 2])).toBeUndefined();
    expect(run('value["1"]', 'abc')).toBe('b');
    expect(run('value["10"]', 'abcdefghijkl')).toBe('k');
    expect(run('() => 7', 1)).toBe(7);
    expect(run('value.a', Object.assign(Object.create(null) as object, { a: 1 }))).toBe(1);
    expect(run('value + "y"', 'x'.repeat(999_999))).toHaveLength(1_000_000);
  });

  it('says exactly why it refuses', () => {
    expect(message('value.constructor', {})).toBe("'constructor' may not be read");
    expect(message('value.toString', {})).toBe("'toString' is not the data's own property");
    expect(message('value["x1"]', 'abc')).toBe("'x1' may not be read here (call an allowed method instead)");
    expect(message('value["1x"]', 'abc')).toBe("'1x' may not be read here (call an allowed method instead)");
    expect(message('value["01"]', 'abc')).toBe("'01' may not be read here (call an allowed method instead)");
    expect(message('value.a.b', {})).toBe("Cannot read 'b' of undefined");
    expect(message('value.a', new Date(0))).toBe("Cannot read 'a' of object");
    expect(message('(x => x).a', 1)).toBe("Cannot read 'a' of object");
    expect(message('~value', 1)).toBe("The operator '~' is not allowed");
    expect(message('a, b', 1)).toBe('Unsupported expression (Compound)');
    expect(message('this', 1)).toBe('Unsupported expression (ThisExpression)');
    expect(message('parseFloat', null)).toBe('parseFloat expects a string or number');
    expect(message('value => y', 1)).toBe("Unknown name 'y'");
    expect(message('value.join()', [1, ['a']])).toBe('join expects an array of strings or numbers');
    expect(() => compileExpression(5 as unknown as string)).toThrow(new ExpressionError('The expression is empty'));
  });

  it('turns an error thrown while reading the data into its own, with the reason', () => {
    const throwing = Object.defineProperty({}, 'a', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(message('value.a', throwing)).toBe('The expression failed: boom');
    const throwingText = Object.defineProperty({}, 'a', {
      enumerable: true,
      get() {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a getter in foreign data may throw anything
        throw 'not an error';
      },
    });
    expect(message('value.a', throwingText)).toBe('The expression failed: unknown error');
  });

  describe('counts depth through every kind of node (200 levels at most)', () => {
    const N = 250;
    it.each([
      ['a member chain', `value${'.a'.repeat(N)}`, {}],
      ['a computed key chain', `${'value['.repeat(N)}0${']'.repeat(N)}`, [0]],
      ['a method chain', `value${'.trim()'.repeat(N)}`, 'x'],
      ['a call chain', `(a=>a)${'(a=>a)'.repeat(N)}`, 1],
      ['nested arguments', `${'String('.repeat(210)}value${')'.repeat(210)}`, 1],
      ['nested arrows', `${'(x=>'.repeat(150)}x${')(x)'.repeat(149)})(value)`, 1],
      ['unary operators', `${'!'.repeat(N)}value`, 1],
      ['&& on the left', `value${' && 1'.repeat(N)}`, 1],
      ['&& on the right', `${'1 && ('.repeat(N)}value${')'.repeat(N)}`, 1],
      ['|| on the right', `${'0 || ('.repeat(N)}value${')'.repeat(N)}`, 1],
      ['?? on the right', `${'null??('.repeat(210)}value${')'.repeat(210)}`, 1],
      ['+ on the left', `value${' + 1'.repeat(N)}`, 1],
      ['+ on the right', `${'1 + ('.repeat(N)}value${')'.repeat(N)}`, 1],
      ['a conditional in the test', `${'('.repeat(210)}value${'?1:1)'.repeat(210)}`, 1],
      ['a conditional in the consequent', `${'1?'.repeat(N)}value${':1'.repeat(N)}`, 1],
      ['a conditional in the alternate', `${'0?0:'.repeat(N)}value`, 1],
      // each level is a call, its target and its arrow's body: two levels of depth
      ['map callbacks', `value.map(v=>${'v.map(v=>'.repeat(120)}1${')'.repeat(121)}`, nested(121)],
      ['filter callbacks', `value.filter(v=>${'v.filter(v=>'.repeat(120)}1${')'.repeat(121)}`, nested(121)],
    ])('%s', (_, text, value) => {
      expect(text.length).toBeLessThanOrEqual(2_000);
      expect(() => run(text, value)).toThrow(/nests too deeply/);
    });

    it('allows exactly 200 levels', () => {
      expect(run(`${'['.repeat(200)}value${']'.repeat(200)}`, 1)).toEqual(nested(200, 1));
      expect(() => run(`${'['.repeat(201)}value${']'.repeat(201)}`, 1)).toThrow(/nests too deeply/);
    });
  });
});

/** [[…[leaf]…]], `depth` arrays deep. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}
