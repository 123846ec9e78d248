import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import { formatInvitationDate, INVITATION_TEXT, invitationActions, invitationStatusText, parseInviteEmails } from './invitations';
import { REL } from './relations';

const links = (...rels: string[]) => Object.fromEntries(rels.map((rel) => [rel, { href: `/api/x/${rel}` }]));
const invitation = (status: string | null, ...rels: string[]) => ({ status, _links: links(...rels) });

describe('parseInviteEmails', () => {
  it('trims each entry, skips empty ones and drops repeats (case-insensitively, first spelling kept)', () => {
    expect(parseInviteEmails(' a@example.com ,, B@example.com, b@example.com ')).toEqual({ emails: ['a@example.com', 'B@example.com'] });
  });

  it('sends nothing when any entry is not an email, or when there is none', () => {
    for (const text of ['a@example.com, nope', '', ' , ', 'a@example.com;b@example.com', '<script>@x']) {
      expect(parseInviteEmails(text)).toEqual({ error: INVITATION_TEXT.invalidEmail });
    }
  });

  it('answers either the error or trimmed, unique, comma-free emails for any text, never throwing', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        const parsed = parseInviteEmails(text);
        if ('error' in parsed) {
          expect(parsed.error).toBe(INVITATION_TEXT.invalidEmail);
          return;
        }
        expect(parsed.emails.length).toBeGreaterThan(0);
        for (const email of parsed.emails) {
          expect(email).toBe(email.trim());
          expect(email).not.toContain(',');
        }
        expect(new Set(parsed.emails.map((e) => e.toLowerCase())).size).toBe(parsed.emails.length);
      }),
    );
  });

  it('keeps every valid address of a generated list', () => {
    const email = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,8}[a-z0-9]$/), fc.stringMatching(/^[a-z]{1,8}$/)).map(([local, host]) => `${local}@${host}.com`);
    fc.assert(
      fc.property(fc.uniqueArray(email, { minLength: 1, maxLength: 5 }), (emails) => {
        const parsed = parseInviteEmails(emails.map((e) => `  ${e} `).join(','));
        expect(parsed).toEqual({ emails });
      }),
    );
  });
});

describe('formatInvitationDate', () => {
  it("writes 'mmmm dd, yyyy' in local time", () => {
    expect(formatInvitationDate(new Date(2026, 10, 5, 12).toISOString())).toBe('November 05, 2026');
  });

  it('answers empty text for a missing or unreadable date, and never throws', () => {
    expect(formatInvitationDate(null)).toBe('');
    expect(formatInvitationDate(undefined)).toBe('');
    fc.assert(
      fc.property(hostileString, (text) => {
        const out = formatInvitationDate(text);
        expect(out === '' || /^[A-Z][a-z]+ \d{2}, -?\d+$/.test(out)).toBe(true);
      }),
    );
  });
});

describe('invitationActions', () => {
  const all = [REL.withdrawInvitation, REL.deleteInvitation, REL.addAdministrator];

  it('offers Resend, Revoke and Delete on a pending invitation with the links', () => {
    expect(invitationActions(invitation('PENDING', ...all))).toEqual({ resend: true, revoke: true, delete: true, adminToggle: null });
  });

  it('offers no Resend or Delete on an accepted one, and the admin toggle by the administrator links', () => {
    expect(invitationActions(invitation('ACCEPTED', ...all))).toEqual({ resend: false, revoke: true, delete: false, adminToggle: 'Make admin' });
    expect(invitationActions(invitation('ACCEPTED', REL.withdrawAdministrator))).toMatchObject({ adminToggle: 'Remove admin' });
    expect(invitationActions(invitation('ACCEPTED'))).toMatchObject({ adminToggle: null });
  });

  it('offers no Revoke on a revoked one; Resend there needs the delete link', () => {
    expect(invitationActions(invitation('REVOKED', REL.deleteInvitation))).toEqual({ resend: true, revoke: false, delete: true, adminToggle: null });
    expect(invitationActions(invitation('REVOKED', REL.withdrawInvitation))).toEqual({ resend: false, revoke: false, delete: false, adminToggle: null });
  });

  it('offers nothing without links, whatever the status', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('PENDING', 'ACCEPTED', 'REVOKED', null), hostileString), (status) => {
        expect(invitationActions(invitation(status))).toEqual({ resend: false, revoke: false, delete: false, adminToggle: null });
      }),
    );
  });

  it('never offers a button whose link is absent', () => {
    fc.assert(
      fc.property(fc.constantFrom('PENDING', 'ACCEPTED', 'REVOKED'), fc.subarray([...all, REL.withdrawAdministrator]), (status, rels) => {
        const actions = invitationActions(invitation(status, ...rels));
        if (actions.revoke) expect(rels).toContain(REL.withdrawInvitation);
        if (actions.delete) expect(rels).toContain(REL.deleteInvitation);
        if (actions.adminToggle === 'Make admin') expect(rels).toContain(REL.addAdministrator);
        if (actions.adminToggle === 'Remove admin') expect(rels).toContain(REL.withdrawAdministrator);
      }),
    );
  });
});

describe('invitationStatusText', () => {
  it('names the three states; anything else reads Pending', () => {
    expect(invitationStatusText('ACCEPTED')).toBe('Accepted');
    expect(invitationStatusText('REVOKED')).toBe('Revoked');
    fc.assert(fc.property(fc.oneof(hostileString.filter((s) => s !== 'ACCEPTED' && s !== 'REVOKED'), fc.constant(null)), (s) => {
      expect(invitationStatusText(s)).toBe('Pending');
    }));
  });
});
