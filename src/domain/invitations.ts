import { REL } from './relations';
import { hasLink, type HalLike } from './hal';
import { isValidEmail } from './validation';

// The invitations page's rules (spec 002 §4, §5, §8, §9).

export const INVITATION_TEXT = {
  invalidEmail: 'Enter valid email address',
  sent: 'Invitation sent successfully',
  sendFailed: 'Unexpected error while sending invitation',
  resendFailed: 'Unexpected error while resending invitation',
  revokeFailed: 'Error while withdrawing invitation. Please try again.',
  loadFailed: 'Error loading invitations. Please try again.',
  empty: 'You have not sent any invitations for this workspace.',
  revoked: (email: string) => `Invitation for ${email} was revoked`,
  resent: (email: string) => `Invitation for ${email} was revoked and resent`,
  domainsHint: (domains: readonly string[]) => `Invitations are limited to addresses at ${domains.join(', ')}`,
} as const;

/** The success toast stays 6 s (spec 002 §9). */
export const INVITATION_SENT_TOAST_MS = 6000;

/** A comma-separated list: every trimmed entry must be an email, else nothing is sent. Empty entries are skipped. */
export function parseInviteEmails(text: string): { readonly emails: readonly string[] } | { readonly error: string } {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0 || entries.some((entry) => !isValidEmail(entry))) return { error: INVITATION_TEXT.invalidEmail };
  return { emails: [...new Set(entries.map((e) => e.toLowerCase()))].map((lower) => entries.find((e) => e.toLowerCase() === lower)!) };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'mmmm dd, yyyy' in local time ('November 05, 2026'); '' for a missing or unreadable date. */
export function formatInvitationDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${MONTHS[date.getMonth()]} ${String(date.getDate()).padStart(2, '0')}, ${date.getFullYear()}`;
}

interface InvitationActions {
  readonly resend: boolean;
  readonly revoke: boolean;
  readonly delete: boolean;
  /** the admin toggle's label, or null when it is not offered */
  readonly adminToggle: 'Make admin' | 'Remove admin' | null;
}

/**
 * Resend unless ACCEPTED; Delete unless ACCEPTED and only with its link; Revoke unless REVOKED;
 * the admin toggle for ACCEPTED, its state from the 'withdraw administrator' link. Every action
 * also needs the link that performs it, so nobody is offered a button the server refuses.
 */
export function invitationActions(invitation: HalLike & { readonly status?: string | null | undefined }): InvitationActions {
  const status = invitation.status ?? '';
  const canWithdraw = hasLink(invitation, REL.withdrawInvitation);
  const isAdmin = hasLink(invitation, REL.withdrawAdministrator);
  return {
    // Resend withdraws a pending invitation first, then invites again (spec: 'revoked and resent').
    resend: status !== 'ACCEPTED' && (status === 'REVOKED' ? hasLink(invitation, REL.deleteInvitation) : canWithdraw),
    revoke: status !== 'REVOKED' && canWithdraw,
    delete: status !== 'ACCEPTED' && hasLink(invitation, REL.deleteInvitation),
    adminToggle: status === 'ACCEPTED' && (isAdmin || hasLink(invitation, REL.addAdministrator)) ? (isAdmin ? 'Remove admin' : 'Make admin') : null,
  };
}

/** How a status reads in the list: the pending state has no spec name, so it reads 'Pending'. */
export function invitationStatusText(status: string | null | undefined): string {
  if (status === 'ACCEPTED') return 'Accepted';
  if (status === 'REVOKED') return 'Revoked';
  return 'Pending';
}
