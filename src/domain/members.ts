import { memberHandle } from './comments';
import type { Member } from './resources';

// The members page (issue 20): who is in the workspace, each as an Admin or a Member. The badge
// reads the member body's `administrator` flag (the Matatika reference's Administrator), never a
// role name, so the server alone decides who counts as an admin.

export const MEMBER_TEXT = {
  title: 'Members',
  loading: 'Loading members',
  empty: 'This workspace has no members yet.',
  invite: 'Invite people',
  // issue 38: the page lists people; their roles and their place here are changed through their invitations
  manage: "To make someone an admin, or to remove them from the workspace, use their invitation:",
  manageLink: 'Invitations',
} as const;

/** One page of members; Load More follows the page's 'next' link for the rest. */
export const MEMBERS_PAGE_SIZE = 50;

type MemberBadge = 'Admin' | 'Member';

export function memberBadge(member: Pick<Member, 'administrator'>): MemberBadge {
  return member.administrator === true ? 'Admin' : 'Member';
}

/** The row a member shows as: name (blank names fall back to the handle), @handle and badge. */
export function memberRow(member: Member): { readonly id: string; readonly name: string; readonly handle: string; readonly badge: MemberBadge } {
  const handle = memberHandle(member);
  return { id: member.id, name: member.name.trim() || handle, handle, badge: memberBadge(member) };
}
