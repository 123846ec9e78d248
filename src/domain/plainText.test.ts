import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainTextFromMarkdown } from './plainText';

describe('plainTextFromMarkdown', () => {
  it('drops markdown markers and keeps the words', () => {
    expect(plainTextFromMarkdown('Total invoiced **revenue** per month')).toBe('Total invoiced revenue per month');
    expect(plainTextFromMarkdown('# Title\n\n> quoted _text_ and `code`')).toBe('Title\n\nquoted text and code');
    expect(plainTextFromMarkdown('See [the docs](https://example.com) and ![chart](x.png)')).toBe('See the docs and chart');
    expect(plainTextFromMarkdown('- one\n- two')).toBe('one\ntwo');
  });
  it('leaves plain text and arithmetic alone', () => {
    expect(plainTextFromMarkdown('2 * 3 = 6')).toBe('2 * 3 = 6');
    expect(plainTextFromMarkdown(null)).toBe('');
  });
  it('never adds characters and never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), (text) => {
        const out = plainTextFromMarkdown(text);
        expect(out.length).toBeLessThanOrEqual(text.length);
      }),
    );
  });
  it('is fast on hostile input', () => {
    const started = Date.now();
    plainTextFromMarkdown('*'.repeat(50_000) + 'a' + '_'.repeat(50_000));
    plainTextFromMarkdown('**a'.repeat(20_000));
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('plainTextFromMarkdown, marker by marker (mutation testing, issue 40)', () => {
  it('ends lines with \\n whatever wrote them, and trims the whole text', () => {
    expect(plainTextFromMarkdown('a\r\nb\rc')).toBe('a\nb\nc');
    expect(plainTextFromMarkdown('  \n x \n  ')).toBe('x');
  });

  it('drops code fences with their language, keeping the code', () => {
    expect(plainTextFromMarkdown('x\n```ts\ncode\n```\ny')).toBe('x\ncode\ny');
    expect(plainTextFromMarkdown('a\n\n```\nb')).toBe('a\n\nb');
    expect(plainTextFromMarkdown('x\n```js')).toBe('x');
  });

  it('drops heading, quote and list markers of one to six hashes and any spaces, only where they are markers', () => {
    expect(plainTextFromMarkdown('start\n##  Title\n> quote\n>no space\n-  item\n* two\n+ three\n-notalist\n#nospace\n####### seven\nend')).toBe(
      'start\nTitle\nquote\nno space\nitem\ntwo\nthree\n-notalist\n#nospace\n####### seven\nend',
    );
  });

  it('drops strikethrough around words, not around spaces', () => {
    expect(plainTextFromMarkdown('~~gone~~ ~~ not ~~ ~~a b~~ ~~x~~')).toBe('gone ~~ not ~~ a b x');
  });
});
