import { describe, expect, it } from 'vitest';
import { BadProp, DASHBOARD_LIMITS, isBadProp, parseDashboard, readLiteralExpression, topLevelSpans } from './parse';

// The parser's own tree, by hand: dashboard.test.ts reads it through the allow-list, which hides
// what the parser made of a tag (a dropped prop, a problem) behind its own rules.

const el = (name: string, props: Record<string, unknown> = {}, children: unknown[] = []) => ({ kind: 'element', name, props, children });
const text = (t: string) => ({ kind: 'text', text: t });
const problem = (message: string) => ({ kind: 'problem', message });

describe('parseDashboard (the tree, by hand)', () => {
  it('reads text, elements, children and the props of each quoting', () => {
    expect(parseDashboard(`a <P x="1" y='2' z={3} flag w = "s">in</P> b`)).toStrictEqual([
      text('a '),
      el('P', { x: '1', y: '2', z: 3, flag: true, w: 's' }, [text('in')]),
      text(' b'),
    ]);
    expect(parseDashboard('')).toStrictEqual([]);
    expect(parseDashboard('just text')).toStrictEqual([text('just text')]);
  });

  it('reads names with digits, dots, colons, dashes and underscores, and props starting with _', () => {
    expect(parseDashboard('<my-el.x:y_2 _a b-c="c" />')).toStrictEqual([el('my-el.x:y_2', { _a: true, 'b-c': 'c' })]);
  });

  it('keeps < that opens no tag as text, and stray characters in a tag are skipped', () => {
    expect(parseDashboard('1<2 a< b <')).toStrictEqual([text('1<2 a< b <')]);
    expect(parseDashboard('</ x')).toStrictEqual([text('</ x')]);
    expect(parseDashboard('<p 9 # x>t</p>')).toStrictEqual([el('p', { x: true }, [text('t')])]);
  });

  it('marks a prop with a value that is neither quoted nor braced as an expression', () => {
    expect(parseDashboard('<p a=b />')).toStrictEqual([el('p', { a: new BadProp('expression'), b: true })]);
  });

  it('reads an unterminated quoted value to the end, and then says the tag is not finished', () => {
    expect(parseDashboard('<p a="xy')).toStrictEqual([problem('<p> is not finished.')]);
    expect(parseDashboard('<p')).toStrictEqual([problem('<p> is not finished.')]);
    expect(parseDashboard('<p a="b" ')).toStrictEqual([problem('<p> is not finished.')]);
  });

  it('marks a spread as a bad prop and steps over quoted braces in it', () => {
    expect(parseDashboard('<p {...a} x="1" />')).toStrictEqual([el('p', { '...': new BadProp('spread'), x: '1' })]);
    expect(parseDashboard('<p s={{ a: "}", b: \'{\', c: `}` }} t="u" />')).toStrictEqual([el('p', { s: { a: '}', b: '{', c: '}' }, t: 'u' })]);
    expect(parseDashboard('<p s={"a\\"}"} t="u" />')).toStrictEqual([el('p', { s: 'a"}', t: 'u' })]);
  });

  it('closes void HTML elements without a closing tag, whatever their case', () => {
    expect(parseDashboard('<br>a<HR>b<img src="x">c')).toStrictEqual([el('br'), text('a'), el('HR'), text('b'), el('img', { src: 'x' }), text('c')]);
  });

  it('says which tag is not closed and which closing tag closes nothing', () => {
    // a closing tag that is not the open element's is dropped there, and both stay open
    expect(parseDashboard('<div>a<span>b</div>')).toStrictEqual([
      el('div', {}, [text('a'), el('span', {}, [text('b'), problem('</div> closes nothing.'), problem('<span> is not closed.')]), problem('<div> is not closed.')]),
    ]);
    expect(parseDashboard('<div>a</div >b')).toStrictEqual([el('div', {}, [text('a')]), text('b')]);
    expect(parseDashboard('a</b >c')).toStrictEqual([text('a'), problem('</b> closes nothing.'), text('c')]);
    expect(parseDashboard('</b')).toStrictEqual([problem('</b> closes nothing.')]);
    // a closing tag without its '>' ends at its name: what follows is text
    expect(parseDashboard('</b c')).toStrictEqual([problem('</b> closes nothing.'), text('c')]);
  });

  it('drops HTML and MDX comments, closed or not', () => {
    expect(parseDashboard('a<!-- x -->b{/* y */}c')).toStrictEqual([text('abc')]);
    expect(parseDashboard('a<!-- x')).toStrictEqual([text('a')]);
    expect(parseDashboard('a{/* x')).toStrictEqual([text('a')]);
    // the end is searched after the opening: '<!-->' does not close itself
    expect(parseDashboard('<!-->x-->y')).toStrictEqual([text('y')]);
    expect(parseDashboard('{/*/}x*/}y')).toStrictEqual([text('y')]);
  });

  it('says when the content is too long, too deep or has too many elements', () => {
    const long = 'x'.repeat(DASHBOARD_LIMITS.maxLength + 1);
    expect(parseDashboard(long)).toStrictEqual([problem('The dashboard content is longer than 200000 characters.')]);
    expect(parseDashboard('x'.repeat(DASHBOARD_LIMITS.maxLength))).toStrictEqual([text('x'.repeat(200_000))]);

    const depth = (n: number) => '<i>'.repeat(n) + 'x';
    // 24 levels are read; the 25th is too deep
    let tree: unknown[] = parseDashboard(depth(24));
    for (let level = 0; level < 24; level += 1) {
      const node = tree[0] as { kind: string; children: unknown[] };
      expect(node.kind).toBe('element');
      tree = node.children;
    }
    expect(tree[0]).toStrictEqual(text('x'));
    let deep: unknown[] = parseDashboard(depth(25) + 'y');
    for (let level = 0; level < 24; level += 1) deep = (deep[0] as { children: unknown[] }).children;
    expect(deep).toStrictEqual([problem('The dashboard content is nested more than 24 levels deep.'), problem('<i> is not closed.')]);

    const many = parseDashboard('<br>'.repeat(2_005));
    expect(many).toHaveLength(2_002);
    expect(many.at(-1)).toStrictEqual(problem('The dashboard content has more than 2000 elements; the rest is not shown.'));
    expect(many.slice(0, -1).every((node) => JSON.stringify(node) === JSON.stringify(el('br')))).toBe(true);
    expect(parseDashboard('a' + '<br>'.repeat(2_001) + 'b').at(-1)).toStrictEqual(problem('The dashboard content has more than 2000 elements; the rest is not shown.'));
    expect(parseDashboard('<br>'.repeat(2_001) + 'b').at(-2)).toStrictEqual(el('br'));
    expect(parseDashboard('<br>'.repeat(2_000) + 'b').at(-1)).toStrictEqual(text('b'));
  });

  it('keeps own props only, never one that reaches the prototype', () => {
    const [node] = parseDashboard('<p __proto__="a" constructor="b" prototype="c" d="e" />');
    expect(node).toStrictEqual(el('p', { d: 'e' }));
    expect(Object.getPrototypeOf((node as { props: object }).props)).toBe(Object.prototype);
  });

  it('keeps a prop name as written, a leading $ included', () => {
    expect(parseDashboard('<p $b="c" _d={1} e />')).toStrictEqual([el('p', { $b: 'c', _d: 1, e: true })]);
  });
});

describe('topLevelSpans', () => {
  it('gives the place of each top-level element and comment, not of nested ones', () => {
    const source = 'a<b>x<i/></b> <!-- c -->{/* d */}<br/>';
    expect(topLevelSpans(source)).toStrictEqual([
      { kind: 'element', start: 1, end: 13, node: el('b', {}, [text('x'), el('i')]) },
      { kind: 'comment', start: 14, end: 24 },
      { kind: 'comment', start: 24, end: 33 },
      { kind: 'element', start: 33, end: 38, node: el('br') },
    ]);
    expect(topLevelSpans('a<!-- b')).toStrictEqual([{ kind: 'comment', start: 1, end: 7 }]);
    expect(topLevelSpans('x'.repeat(DASHBOARD_LIMITS.maxLength + 1))).toStrictEqual([]);
    expect(topLevelSpans(`<br/>${'x'.repeat(DASHBOARD_LIMITS.maxLength - 5)}`)).toStrictEqual([{ kind: 'element', start: 0, end: 5, node: el('br') }]);
    expect(topLevelSpans(`<br/>${'x'.repeat(DASHBOARD_LIMITS.maxLength - 4)}`)).toStrictEqual([]);
    expect(topLevelSpans('<br/>'.repeat(2))).toHaveLength(2);
  });
});

describe('readLiteralExpression (by hand)', () => {
  it('reads numbers in every literal form', () => {
    const read = (code: string) => readLiteralExpression(code);
    expect(['0', '-1', '1.5', '12.5', '1.', '.5', '.25', '-.5', '1e3', '1e10', '2E-2', '1e+2', ' 7 '].map(read)).toStrictEqual([0, -1, 1.5, 12.5, 1, 0.5, 0.25, -0.5, 1000, 1e10, 0.02, 100, 7]);
    expect(['true', 'false', 'null', 'undefined'].map(read)).toStrictEqual([true, false, null, null]);
  });

  it('refuses what only looks like a literal', () => {
    for (const code of ['', 'truex', 'nullish', '1a', '1_000', '1e999', '-', 'NaN', 'Infinity', '1 2', '[1 2]', '{a 1}', '{a: 1 b: 2}', '{1: 2}', '"open', '[', '{', '{a:', '`a${b}`', '1:2', '{a=1}', '[#,1]', '{1:2, b:3}']) {
      expect(readLiteralExpression(code), code).toStrictEqual(new BadProp('expression'));
    }
  });

  it('reads strings with their escapes in every quote', () => {
    expect(readLiteralExpression(`'a\\tb\\nc\\u0041\\u00e9\\'\\\\'`)).toBe("a\tb\nc\u0041\u00e9'\\");
    expect(readLiteralExpression('`x$y$`')).toBe('x$y$');
    expect(readLiteralExpression('"\\u12"')).toBe('u12');
    expect(readLiteralExpression('"\\x"')).toBe('x');
    expect(readLiteralExpression('"\\x0041"')).toBe('x0041');
    // braces and ${ are plain text in quotes; only a template's ${ is an expression
    expect(readLiteralExpression('"a{b}"')).toBe('a{b}');
    expect(readLiteralExpression("'${x}'")).toBe('${x}');
    expect(readLiteralExpression('`a{b}`')).toBe('a{b}');
    expect(readLiteralExpression('"a function"')).toBe('a function');
  });

  it('reads arrays and objects, with trailing commas, quoted keys and keys with dashes', () => {
    expect(readLiteralExpression('[ ]')).toStrictEqual([]);
    expect(readLiteralExpression('[1, [2,], ]')).toStrictEqual([1, [2]]);
    expect(readLiteralExpression(`{ 'a b': 1, "c": 2, d-e: 3, _f$: {}, }`)).toStrictEqual({ 'a b': 1, c: 2, 'd-e': 3, _f$: {} });
    expect(readLiteralExpression('{a:1,__proto__:{x:1},constructor:2,prototype:3}')).toStrictEqual({ a: 1 });
  });

  it('refuses literals nested past the depth limit', () => {
    expect(readLiteralExpression('[[[[[[[[1]]]]]]]]')).toStrictEqual([[[[[[[[1]]]]]]]]);
    expect(readLiteralExpression('[[[[[[[[[1]]]]]]]]]')).toStrictEqual(new BadProp('expression'));
    expect(readLiteralExpression('{a:{a:{a:{a:{a:{a:{a:{a:1}}}}}}}}')).toStrictEqual({ a: { a: { a: { a: { a: { a: { a: { a: 1 } } } } } } } });
    expect(readLiteralExpression('{a:{a:{a:{a:{a:{a:{a:{a:{a:1}}}}}}}}}')).toStrictEqual(new BadProp('expression'));
  });

  it('calls any function a function, whatever its form', () => {
    for (const code of ['function () {}', ' function () {}', 'async function f() {}', 'async  function(){}', 'a => 1', '(a, b) => a', '() => 1', '[x => 1]', 'functional']) {
      const value = readLiteralExpression(code);
      expect(value, code).toStrictEqual(code === 'functional' ? new BadProp('expression') : new BadProp('function'));
    }
  });

  it('tells a bad prop from a literal', () => {
    expect(isBadProp(new BadProp('spread'))).toBe(true);
    expect(isBadProp({ bad: 'spread' })).toBe(false);
    expect(isBadProp(null)).toBe(false);
  });
});
