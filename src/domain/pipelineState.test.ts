import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOKMARK_POSITION_MAX, BOOKMARKS_SHOWN_MAX, bookmarkPosition, bookmarksOf } from './pipelineState';

describe('bookmarksOf', () => {
  it("reads a built-in tap's bare Singer state", () => {
    expect(bookmarksOf({ bookmarks: { orders: { modified: '2026-11-01T10:00:00Z' }, customers: { replication_key_value: 42 } } })).toEqual([
      { stream: 'customers', position: '≥ 42' },
      { stream: 'orders', position: 'modified = 2026-11-01T10:00:00Z' },
    ]);
  });

  it("reads Meltano's completed state, the partial bookmarks of a run that ended early over it", () => {
    const value = {
      completed: { singer_state: { bookmarks: { a: { replication_key: 'id', replication_key_value: 10 }, b: { replication_key: 'id', replication_key_value: 5 } } } },
      partial: { singer_state: { bookmarks: { b: { replication_key: 'id', replication_key_value: 7 } } } },
    };
    expect(bookmarksOf(value)).toEqual([
      { stream: 'a', position: 'id ≥ 10' },
      { stream: 'b', position: 'id ≥ 7' },
    ]);
    expect(bookmarksOf({ completed: {}, partial: {} })).toEqual([]);
  });

  it('shows an unknown bookmark as its JSON, shortened', () => {
    expect(bookmarkPosition({ page: 3, cursor: 'x' })).toBe('{"page":3,"cursor":"x"}');
    // what JSON cannot write is still shown as text
    expect(bookmarkPosition(10n)).toBe('10');
    const cyclic: Record<string, unknown> = { a: 1, b: 2 };
    cyclic.self = cyclic;
    expect(bookmarkPosition(cyclic)).toBe('[object Object]');
    const long = bookmarkPosition({ cursor: 'y'.repeat(500), more: true });
    expect(long).toHaveLength(BOOKMARK_POSITION_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(bookmarkPosition({ replication_key: 'updated', replication_key_value: 'line\nbreak' })).toBe('updated ≥ line break');
  });

  it('reads nothing from what is not a state', () => {
    for (const value of [null, 42, 'text', [], [{ bookmarks: {} }], { bookmarks: [] }, { completed: 'x' }, { bookmarks: null }]) expect(bookmarksOf(value)).toEqual([]);
  });

  it('never throws on any JSON, and keeps its promises: sorted, bounded, lines of bounded length', () => {
    const stateLike = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.string(), fc.jsonValue()).map((bookmarks) => ({ bookmarks })),
      fc.record({ completed: fc.record({ singer_state: fc.record({ bookmarks: fc.dictionary(fc.string(), fc.jsonValue()) }) }), partial: fc.jsonValue() }),
    );
    fc.assert(
      fc.property(stateLike, (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        const result = bookmarksOf(parsed);
        expect(result.length).toBeLessThanOrEqual(BOOKMARKS_SHOWN_MAX);
        for (const bookmark of result) {
          expect(bookmark.position.length).toBeLessThanOrEqual(BOOKMARK_POSITION_MAX);
          expect(bookmark.stream.length).toBeLessThanOrEqual(BOOKMARK_POSITION_MAX);
          expect(bookmark.position).not.toMatch(/[\n\r\t]/);
        }
        const streams = result.map((b) => b.stream);
        expect(streams).toEqual([...streams].sort());
      }),
    );
  });

  it('lists at most BOOKMARKS_SHOWN_MAX streams, and a hostile key like __proto__ as any other', () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`s${String(i).padStart(2, '0')}`, { replication_key_value: i }]));
    expect(bookmarksOf({ bookmarks: many })).toHaveLength(BOOKMARKS_SHOWN_MAX);
    const hostile: unknown = JSON.parse('{"bookmarks":{"__proto__":{"replication_key_value":"x"},"constructor":1}}');
    expect(bookmarksOf(hostile)).toEqual([
      { stream: '__proto__', position: '≥ x' },
      { stream: 'constructor', position: '1' },
    ]);
  });
});

describe('bookmark positions at their edges (by hand)', () => {
  it('reads scalar keys and values only, and flattens runs of whitespace', () => {
    expect(bookmarkPosition({ replication_key: 'k', replication_key_value: 'a \n\t b' })).toBe('k ≥ a b');
    expect(bookmarkPosition({ replication_key: 'k', replication_key_value: true })).toBe('k ≥ true');
    expect(bookmarkPosition({ replication_key: { a: 1 }, replication_key_value: 'x' })).toBe('≥ x');
    expect(bookmarkPosition({ replication_key: 'updated_at' })).toBe('replication_key = updated_at');
    expect(bookmarkPosition({ cursor: false })).toBe('cursor = false');
    expect(bookmarkPosition({ a: { b: 1 } })).toBe('{"a":{"b":1}}');
  });

  it('keeps a position of exactly the longest length whole', () => {
    const value = 'v'.repeat(BOOKMARK_POSITION_MAX - 4);
    expect(bookmarkPosition({ replication_key: 'k', replication_key_value: value })).toBe(`k ≥ ${value}`);
    expect(bookmarkPosition({ replication_key: 'k', replication_key_value: `${value}w` })).toBe(`k ≥ ${value.slice(0, -1)}…`);
  });

  it("reads Meltano's completed or partial state, either one alone", () => {
    const singer = (value: string) => ({ singer_state: { bookmarks: { s: { replication_key_value: value } } } });
    expect(bookmarksOf({ completed: singer('c') })).toEqual([{ stream: 's', position: '≥ c' }]);
    expect(bookmarksOf({ partial: singer('p') })).toEqual([{ stream: 's', position: '≥ p' }]);
    expect(bookmarksOf({ completed: singer('c'), partial: singer('p') })).toEqual([{ stream: 's', position: '≥ p' }]);
  });
});
