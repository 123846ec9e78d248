import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hasText,
  insertHandle,
  memberCommentsReadOnly,
  memberHandle,
  mentionAtCaret,
  mentionedHandles,
  mentionedMembers,
  messageParts,
  suggestMembers,
  withMemberNames,
} from './comments';
import { hostileStringWithHuge } from './hostile.fixture';

const max = { id: 'p2', name: 'Max Member', handle: '@max' };
const olivia = { id: 'p1', name: 'Olivia Owner', handle: null };

describe('messageParts', () => {
  it('finds #tags and @handles at word starts, keeping everything else as text', () => {
    expect(messageParts('Hi @max, see #Revenue. mail a@b.c #2026')).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'mention', text: '@max', handle: '@max' },
      { kind: 'text', text: ', see ' },
      { kind: 'tag', text: '#Revenue', tag: 'revenue' },
      { kind: 'text', text: '. mail a@b.c ' },
      { kind: 'tag', text: '#2026', tag: '2026' },
    ]);
  });

  it('leaves a trailing full stop out of a handle and keeps dots inside', () => {
    expect(mentionedHandles('ask @jane.doe.')).toEqual(['@jane.doe']);
    expect(messageParts('## heading #a#b').flatMap((part) => (part.kind === 'tag' ? [part.tag] : []))).toEqual(['a']);
  });

  it('treats markup as text: a script tag is one text part', () => {
    const xss = '<img src=x onerror=alert(1)> #tag';
    const parts = messageParts(xss);
    expect(parts[0]).toEqual({ kind: 'text', text: '<img src=x onerror=alert(1)> ' });
  });

  it('joins back to the message for any text (hostile and huge included)', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        expect(
          messageParts(text)
            .map((p) => p.text)
            .join(''),
        ).toBe(text);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('@', '#', 'a', '.', ' ', '-', 'é', '_') }), (text) => {
        expect(
          messageParts(text)
            .map((p) => p.text)
            .join(''),
        ).toBe(text);
      }),
    );
  });

  it('every mention and tag part starts with its sigil and has a name', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('@', '#', 'a', 'Z', '.', ' ', '-', '1') }), (text) => {
        for (const part of messageParts(text)) {
          // A name starts with a letter, digit or '_' and never ends with '.' (a sentence's full stop).
          if (part.kind !== 'text') expect(part.text).toMatch(/^[@#][^\s@#.-](?:[^\s@#]*[^\s@#.])?$/);
        }
      }),
    );
  });
});

describe('memberHandle and mentionedMembers', () => {
  it('uses the stored handle, else a slug of the name, else the id', () => {
    expect(memberHandle(max)).toBe('@max');
    expect(memberHandle(olivia)).toBe('@olivia-owner');
    expect(memberHandle({ id: 'x1', name: '!!!', handle: null })).toBe('@x1');
    expect(memberHandle({ id: 'x1', name: 'a', handle: 'bob' })).toBe('@bob');
  });

  it('resolves only handles of the given members, case-insensitively', () => {
    expect(mentionedMembers('thanks @MAX and @olivia-owner and @nobody', [max, olivia])).toEqual([max, olivia]);
    expect(mentionedMembers('no mentions', [max])).toEqual([]);
  });

  it('never throws and never names a non-member, for any text', () => {
    fc.assert(fc.property(hostileStringWithHuge, (text) => mentionedMembers(text, [max, olivia]).every((m) => m === max || m === olivia)));
  });
});

describe('withMemberNames (issue 38: a mention notification says the name, not the raw @handle)', () => {
  it("names the members' handles and leaves the rest as written", () => {
    expect(withMemberNames('On it @MAX, ask @olivia-owner or @nobody. #sales @', [max, olivia])).toBe('On it Max Member, ask Olivia Owner or @nobody. #sales @');
    expect(withMemberNames('mail me@max.example', [max])).toBe('mail me@max.example');
  });

  it('keeps a text without member handles as it is, and leaves no member handle behind (hostile input)', () => {
    fc.assert(
      // hostile text mixed with handles, so members are mentioned in every position
      fc.property(fc.array(fc.oneof(hostileStringWithHuge, fc.constantFrom('@max', ' @MAX.', '@olivia-owner', '(@max)', '@', '#max', ' ', '\n')), { maxLength: 8 }).map((pieces) => pieces.join('')), (text) => {
        expect(withMemberNames(text, [])).toBe(text);
        const named = withMemberNames(text, [max, olivia]);
        expect(mentionedMembers(named, [max, olivia])).toEqual([]);
        if (mentionedMembers(text, [max, olivia]).length === 0) expect(named).toBe(text);
      }),
    );
  });
});

describe('composing', () => {
  it('finds the mention being typed at the caret', () => {
    expect(mentionAtCaret('hello @ma', 9)).toEqual({ start: 6, query: 'ma' });
    expect(mentionAtCaret('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAtCaret('mail a@b', 8)).toBeUndefined();
    expect(mentionAtCaret('hello @ma x', 11)).toBeUndefined();
  });

  it('suggests members by name or handle and inserts the handle', () => {
    expect(suggestMembers([max, olivia], 'oli')).toEqual([olivia]);
    expect(suggestMembers([max, olivia], 'MAX')).toEqual([max]);
    expect(suggestMembers([max, olivia], '')).toEqual([max, olivia]);
    expect(insertHandle('hi @ma there', 3, 6, '@max')).toEqual({ text: 'hi @max  there', caret: 8 });
  });

  it('caret positions anywhere in any text never throw', () => {
    fc.assert(fc.property(hostileStringWithHuge, fc.integer({ min: -5, max: 200_000 }), (text, caret) => void mentionAtCaret(text, caret)));
  });

  it('hasText, and the read-only switch', () => {
    expect(hasText('  ')).toBe(false);
    expect(hasText(' a ')).toBe(true);
    expect(hasText(undefined)).toBe(false);
    expect(memberCommentsReadOnly(' TRUE ')).toBe(true);
    expect(memberCommentsReadOnly('yes')).toBe(false);
    expect(memberCommentsReadOnly(null)).toBe(false);
  });
});

describe('comments, at the edges of each rule (mutation testing, issue 40)', () => {
  it('a stored handle is trimmed, a blank one falls back to the name, and a name is slugged whole', () => {
    expect(memberHandle({ id: 'x', name: 'Max', handle: '  bob ' })).toBe('@bob');
    expect(memberHandle({ id: 'x', name: 'Max Member', handle: '   ' })).toBe('@max-member');
    expect(memberHandle({ id: 'x', name: '  --Ann  O’Neil!--  ', handle: undefined })).toBe('@ann-o-neil');
    expect(memberHandle({ id: 'x', name: 'Élodie 2', handle: null })).toBe('@élodie-2');
  });

  it('a message that starts or ends with a token has no empty text part', () => {
    expect(messageParts('@max hi #a')).toEqual([
      { kind: 'mention', text: '@max', handle: '@max' },
      { kind: 'text', text: ' hi ' },
      { kind: 'tag', text: '#a', tag: 'a' },
    ]);
    expect(messageParts('')).toEqual([]);
    expect(messageParts('#a')).toEqual([{ kind: 'tag', text: '#a', tag: 'a' }]);
  });

  it("reads names of letters, digits, '_', '-' and inner '.', in any script, only at a word's start", () => {
    expect(messageParts('#a_b-c @bob- #日本 @Élodie').filter((part) => part.kind !== 'text')).toEqual([
      { kind: 'tag', text: '#a_b-c', tag: 'a_b-c' },
      { kind: 'mention', text: '@bob-', handle: '@bob-' },
      { kind: 'tag', text: '#日本', tag: '日本' },
      { kind: 'mention', text: '@Élodie', handle: '@élodie' },
    ]);
    // after a letter, a digit, '_', '@' or '#' a sigil is part of the word
    for (const text of ['x_@max', 'x@max', '1#tag', '#@max', '@#tag', 'é#tag']) expect(messageParts(text), text).toEqual([{ kind: 'text', text }]);
    expect(messageParts('(@max) [#t]').filter((part) => part.kind !== 'text')).toEqual([
      { kind: 'mention', text: '@max', handle: '@max' },
      { kind: 'tag', text: '#t', tag: 't' },
    ]);
    expect(messageParts('@.max #-t').filter((part) => part.kind !== 'text')).toEqual([]);
  });

  it('lists each handle once, whatever its case', () => {
    expect(mentionedHandles('@max @MAX and @Max.')).toEqual(['@max']);
  });

  it('keeps a mention as written when the member has a blank name, and uses the trimmed name otherwise', () => {
    expect(withMemberNames('hi @max', [{ id: 'p2', name: '   ', handle: '@max' }])).toBe('hi @max');
    expect(withMemberNames('hi @max', [{ id: 'p2', name: ' Max ', handle: '@max' }])).toBe('hi Max');
  });

  it('reads the mention before the caret, clamping the caret, up to 50 handle characters', () => {
    expect(mentionAtCaret('hi @ma', 99)).toEqual({ start: 3, query: 'ma' });
    expect(mentionAtCaret('@ma', -1)).toBeUndefined();
    expect(mentionAtCaret(`@${'a'.repeat(50)}`, 51)).toEqual({ start: 0, query: 'a'.repeat(50) });
    expect(mentionAtCaret(` @${'a'.repeat(51)}`, 53)).toBeUndefined();
    expect(mentionAtCaret('x @jo.doe-1_', 12)).toEqual({ start: 2, query: 'jo.doe-1_' });
    expect(mentionAtCaret('#@ma', 4)).toBeUndefined();
  });

  it('suggests at most six members by default, or the limit given, for a trimmed query', () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ id: `m${i}`, name: `Member ${i}`, handle: null }));
    expect(suggestMembers(many, '')).toEqual(many.slice(0, 6));
    expect(suggestMembers(many, 'member', 2)).toEqual(many.slice(0, 2));
    expect(suggestMembers([max, olivia], '  oli  ')).toEqual([olivia]);
    expect(suggestMembers([max, olivia], '@max')).toEqual([max]);
    // by name alone, when the handle does not hold the query
    const mm = { id: 'm', name: 'Max Member', handle: '@mm' };
    expect(suggestMembers([mm, olivia], 'MEMBER')).toEqual([mm]);
  });

  it('is read-only only for the text true, and has text only in a string', () => {
    expect(memberCommentsReadOnly('true')).toBe(true);
    expect(memberCommentsReadOnly('false')).toBe(false);
    expect(memberCommentsReadOnly(undefined)).toBe(false);
    expect(hasText(null)).toBe(false);
    expect(hasText('\n\tx')).toBe(true);
  });
});
