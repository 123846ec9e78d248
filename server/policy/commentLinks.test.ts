import { describe, expect, it } from 'vitest';
import type { MemberRole } from '../db/schema';
import { hrefs } from './hrefs';
import { commentLinks, mayComment } from './links';

// The comment policy on its own (issue 40, item 4): who is offered what on a comment, from a table
// written by hand (spec 002 §4-§7), the read-only switch (MEMBER_COMMENTS_READ_ONLY) included. The
// guard refuses whatever is not offered (guard.test.ts); tests/api/comments.test.ts checks both together.

const h = hrefs({ publicUrl: 'http://api.test' });
const comment = { id: 'c1', dataset_id: 'd1', parent_id: null, author_id: 'author', message: 'hello' };
const HREF = 'http://api.test/api/comments/c1';

type Who = 'author (member)' | 'another member' | 'author (editor)' | 'owner';
const PEOPLE: Record<Who, { role: MemberRole; profileId: string }> = {
  'author (member)': { role: 'member', profileId: 'author' },
  'another member': { role: 'member', profileId: 'someone' },
  'author (editor)': { role: 'editor', profileId: 'author' },
  owner: { role: 'owner', profileId: 'someone' },
};

// [who, comments read-only for members?, offered 'update comment', offered 'delete comment', offered 'new comment']
const TABLE: [Who, boolean, boolean, boolean, boolean][] = [
  ['author (member)', false, true, true, true],
  ['author (member)', true, false, false, false],
  ['another member', false, false, false, true],
  ['another member', true, false, false, false],
  ['author (editor)', false, true, true, true],
  ['author (editor)', true, true, true, true],
  ['owner', false, false, true, true],
  ['owner', true, false, true, true],
];

describe('the links of a comment, by who looks and whether comments are read-only for members', () => {
  for (const [who, readOnly, update, remove, reply] of TABLE) {
    it(`${who}, ${readOnly ? 'read-only' : 'writable'}: update ${update}, delete ${remove}, reply ${reply}`, () => {
      const person = PEOPLE[who];
      const offered = commentLinks(h, comment, { ...person, mayComment: mayComment(person.role, readOnly ? 'true' : null) });
      expect(offered['update comment'], 'update comment').toEqual(update ? { href: HREF } : undefined);
      expect(offered['delete comment'], 'delete comment').toEqual(remove ? { href: HREF } : undefined);
      expect(offered['new comment'], 'new comment').toEqual(reply ? { href: HREF } : undefined);
      // reading, liking and the history are everyone's, read-only or not
      expect(offered['like comment']).toEqual({ href: `${HREF}/like` });
      expect(offered.history).toEqual({ href: `${HREF}/history` });
    });
  }

  it('reads the switch as the spec writes it: "true" in any case and spacing, nothing else', () => {
    for (const value of ['true', 'TRUE', ' True ']) expect(mayComment('member', value), value).toBe(false);
    for (const value of [null, undefined, '', 'false', 'yes', '1']) expect(mayComment('member', value), String(value)).toBe(true);
  });
});

describe('an initialised comment and a reply', () => {
  const initialised = { ...comment, message: null };

  it('an initialised comment (no message yet) offers its author, while they may write, the PUT that creates it and nothing else', () => {
    expect(commentLinks(h, initialised, { role: 'member', profileId: 'author', mayComment: true })).toEqual({ 'update comment': { href: HREF } });
    expect(commentLinks(h, initialised, { role: 'member', profileId: 'author', mayComment: false })).toEqual({});
    // not even an owner sees someone else's comment before it is written
    expect(commentLinks(h, initialised, { role: 'owner', profileId: 'someone', mayComment: true })).toEqual({});
  });

  it("a top-level comment's replies are the dataset's comments with its id as parentId", () => {
    const links = commentLinks(h, { ...comment, id: 'c&1' }, { role: 'member', profileId: 'someone', mayComment: true });
    expect(links.comments).toEqual({ href: 'http://api.test/api/datasets/d1/comments?parentId=c%261' });
  });

  it('a reply offers no replies of its own and no reply to it: replies go one level deep', () => {
    expect(commentLinks(h, { ...comment, parent_id: 'c0' }, { role: 'member', profileId: 'author', mayComment: true })).toEqual({
      self: { href: HREF },
      history: { href: `${HREF}/history` },
      'like comment': { href: `${HREF}/like` },
      'update comment': { href: HREF },
      'delete comment': { href: HREF },
    });
  });
});
