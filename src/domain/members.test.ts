import { describe, expect, it } from 'vitest';
import { memberBadge, memberRow } from './members';
import type { Member } from './resources';

const member = (id: string, extra: Partial<Member> = {}): Member => ({ id, name: `Person ${id}`, ...extra });

describe('memberBadge', () => {
  it('is Admin only for an explicit administrator flag', () => {
    expect(memberBadge({ administrator: true })).toBe('Admin');
    expect(memberBadge({ administrator: false })).toBe('Member');
    expect(memberBadge({ administrator: null })).toBe('Member');
    expect(memberBadge({})).toBe('Member');
  });

  it('ignores role names (links and flags are the permissions, not roles)', () => {
    expect(memberBadge(member('a', { role: 'owner' }))).toBe('Member');
  });
});

describe('memberRow', () => {
  it('shows the stored handle with its @, or one made from the name', () => {
    expect(memberRow(member('a', { name: 'Olivia Owner', handle: '@olivia', administrator: true }))).toEqual({ id: 'a', name: 'Olivia Owner', handle: '@olivia', badge: 'Admin' });
    expect(memberRow(member('b', { name: 'Max Member', handle: 'max' })).handle).toBe('@max');
    expect(memberRow(member('c', { name: 'Ann Lee', handle: null })).handle).toBe('@ann-lee');
  });

  it('names a blank-named member by handle', () => {
    expect(memberRow(member('d', { name: '  ', handle: '@d' })).name).toBe('@d');
  });
});
