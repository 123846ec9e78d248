import { describe, expect, it } from 'vitest';
import { parseMemo } from './parseMemo';

class Refused extends Error {}

describe('parseMemo', () => {
  it('computes a text once, also while the first computation is still running', async () => {
    let runs = 0;
    const memo = parseMemo((text: string) => (runs++, Promise.resolve(text.length)));
    expect(await Promise.all([memo('abc'), memo('abc')])).toEqual([3, 3]);
    expect(await memo('abc')).toBe(3);
    expect(runs).toBe(1);
  });

  it('keeps the failures it is told are answers, and retries the others', async () => {
    let runs = 0;
    const memo = parseMemo(
      (text: string) => {
        runs++;
        return Promise.reject(text === 'bad' ? new Refused('bad') : new Error('module did not load'));
      },
      { keep: (error) => error instanceof Refused },
    );
    await expect(memo('bad')).rejects.toBeInstanceOf(Refused);
    await expect(memo('bad')).rejects.toBeInstanceOf(Refused);
    await expect(memo('other')).rejects.toThrow('module did not load');
    await expect(memo('other')).rejects.toThrow('module did not load');
    expect(runs).toBe(3);
  });

  it('drops the least recently used text past its bounds, and never keeps a text larger than them', async () => {
    const seen: string[] = [];
    const memo = parseMemo((text: string) => (seen.push(text), Promise.resolve(text)), { maxEntries: 2, maxChars: 10 });
    await memo('a');
    await memo('b');
    await memo('a'); // a is now the most recent
    await memo('c'); // drops b
    await memo('a');
    await memo('b');
    await memo('0123456789x');
    await memo('0123456789x');
    expect(seen).toEqual(['a', 'b', 'c', 'b', '0123456789x', '0123456789x']);
  });
});
