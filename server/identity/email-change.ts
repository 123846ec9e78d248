import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { readForm } from './http';
import { deliver } from './account-mail';
import type { Mailer } from './mailer';
import { consumeOneTimeTokenRow, issueOneTimeToken, peekOneTimeTokenRow, pendingNewEmail, retireOneTimeTokens } from './one-time-tokens';
import { findIdpUserById, findIdpUserBySubject, idOfSubject, recordCredentialChange, type IdpUser } from './users';

/**
 * A profile's email changes only through its new mailbox: the change waits in a one-time link
 * mailed to the new address ('change-email' token carrying that address), and the old address
 * stays until the link is opened and confirmed. An address stays unique across accounts (case
 * insensitive): one that belongs to another account is never confirmed — its owner is told instead,
 * and the requester gets the same answer either way, so the form cannot tell who has an account.
 */
export interface EmailChangeDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  logger: FastifyBaseLogger;
  /** the embedded provider's issuer, where the confirmation page is */
  issuer: string;
  appTitle: string;
}

/** Whether an account other than `user` (or its profile) has `email`, in any case. */
async function isTakenByAnother(db: Db, email: string, user: Pick<IdpUser, 'id' | 'subject'>): Promise<boolean> {
  const lower = email.trim().toLowerCase();
  const account = await db.selectFrom('idp_users').select('id').where(sql<string>`lower(email)`, '=', lower).where('id', '<>', user.id).executeTakeFirst();
  if (account) return true;
  const profile = await db.selectFrom('profiles').select('id').where(sql<string>`lower(email)`, '=', lower).where('id', '<>', user.subject).executeTakeFirst();
  return profile !== undefined;
}

/** The address waiting for confirmation on this profile, if any. */
export async function pendingEmailOf(db: Db, subject: string): Promise<string | undefined> {
  const id = idOfSubject(subject);
  return id === undefined ? undefined : pendingNewEmail(db, id);
}

/**
 * Mails the confirmation link to `newEmail` (a newer request replaces an older one), or, when the
 * address belongs to another account, a note to that address. False when the profile is not an
 * account of the embedded provider (nothing to change here).
 */
export async function requestEmailChange(deps: EmailChangeDeps, subject: string, newEmail: string): Promise<boolean> {
  const { db, issuer, appTitle } = deps;
  const user = await findIdpUserBySubject(db, subject);
  if (!user) return false;
  await retireOneTimeTokens(db, user.id, 'change-email');
  // Issued in both cases, so the profile shows the same pending change either way; when the
  // address is taken the link is never mailed, and confirming would refuse it anyway.
  const token = await issueOneTimeToken(db, user.id, 'change-email', newEmail);
  if (await isTakenByAnother(db, newEmail, user)) {
    deps.logger.info({ sub: subject }, 'email change to an address of another account: its owner told instead');
    await deliver(deps, {
      to: newEmail,
      subject: `Somebody tried to use your address for another ${appTitle} account`,
      text: `Hello,\n\nsomebody asked to change the email address of another ${appTitle} account to this one (${newEmail}). This address already belongs to an account, so nothing changed.\n\nIf you did not expect this, ignore this message.\n`,
    });
    return true;
  }
  await deliver(deps, {
    to: newEmail,
    subject: `Confirm your new email address for ${appTitle}`,
    text: `Hello ${user.name},\n\nsomebody asked to use this address (${newEmail}) for the ${appTitle} account of ${user.email}. To confirm, open this link:\n\n${issuer}confirm-email?token=${token}\n\nUntil you do, the account keeps its old address. The link is valid for 24 hours. If you did not ask for this, ignore this message.\n`,
  });
  deps.logger.info({ sub: subject }, 'email change requested');
  return true;
}

type Confirmation = { outcome: 'invalid' } | { outcome: 'taken' } | { outcome: 'changed'; user: IdpUser; oldEmail: string; newEmail: string };

const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/** Uses the link: the account and its profile take the new address together, or nothing changes. */
async function confirmEmailChange(db: Db, token: string): Promise<Confirmation> {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await consumeOneTimeTokenRow(trx, token, 'change-email');
      const user = row ? await findIdpUserById(trx, row.userId) : undefined;
      if (!row?.newEmail || !user) return { outcome: 'invalid' } as const;
      // Checked again now: the address may have been taken since the link was mailed. The unique
      // index on idp_users decides a race between two accounts confirming at once.
      if (await isTakenByAnother(trx, row.newEmail, user)) return { outcome: 'taken' } as const;
      await trx.updateTable('idp_users').set({ email: row.newEmail, email_verified: true }).where('id', '=', user.id).execute();
      await trx.updateTable('profiles').set({ email: row.newEmail, updated_at: new Date() }).where('id', '=', user.subject).execute();
      // Whoever held a token for the old address loses it now, not when it runs out.
      await recordCredentialChange(trx, user.id);
      return { outcome: 'changed', user, oldEmail: user.email, newEmail: row.newEmail } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: 'taken' };
    throw error;
  }
}

/** /confirm-email?token=: GET shows a button (mail scanners open links), POST confirms. */
export async function handleConfirmEmail(context: IdentityContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const { db, pages } = context;
  if (req.method === 'GET') {
    const token = query.get('token') ?? '';
    const row = await peekOneTimeTokenRow(db, token, 'change-email');
    return row?.newEmail ? sendPage(res, 200, pages.confirmEmailChange({ token, newEmail: row.newEmail })) : sendPage(res, 400, pages.invalidLink('email change'));
  }
  if (req.method !== 'POST') return sendPage(res, 405, pages.error({ title: 'Not allowed', description: 'This page cannot be used this way.' }));
  const form = await readForm(req);
  const result = await confirmEmailChange(db, form.get('token') ?? '');
  if (result.outcome === 'invalid') return sendPage(res, 400, pages.invalidLink('email change'));
  if (result.outcome === 'taken') {
    return sendPage(res, 409, pages.error({ title: 'Address already in use', description: 'This address belongs to another account, so it cannot be used for this one. Nothing changed.' }));
  }
  context.logger.info({ sub: result.user.subject }, 'email changed');
  // The old mailbox hears of it: if the change was not its owner's doing, they know at once.
  await deliver(context, {
    to: result.oldEmail,
    subject: `Your ${context.config.env.APP_TITLE} email address was changed`,
    text: `Hello ${result.user.name},\n\nthe email address of your ${context.config.env.APP_TITLE} account was changed from ${result.oldEmail} to ${result.newEmail}. Sign in with the new address from now on.\n\nIf you did not do this, reset your password at once and tell your workspace administrator.\n`,
  });
  sendPage(res, 200, pages.emailChanged(result.newEmail));
}
