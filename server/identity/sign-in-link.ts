import type { IncomingMessage, ServerResponse } from 'node:http';
import { appSignInLink } from '../../src/domain/emailLinks';
import { AFTER_LINK_SECONDS, allowSignInHere } from './browser-sign-in';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { readForm, redirect } from './http';
import { consumeOneTimeToken, peekOneTimeToken } from './one-time-tokens';
import { findIdpUserById, markEmailVerified } from './users';

/**
 * /sign-in-link?token=: the mailed one-time sign-in link ("Email me a sign-in link", offered on a
 * refused sign-in). GET only shows a button (mail scanners open links); pressing it uses the token
 * and hands the person to the app, whose fresh sign-in this browser then finishes without the
 * password (browser-sign-in.ts). Any browser will do: the link proves the mailbox, as a reset does.
 */
export async function handleSignInLink(context: IdentityContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const { db, pages } = context;
  if (req.method === 'GET') {
    const token = query.get('token') ?? '';
    const userId = await peekOneTimeToken(db, token, 'sign-in-link');
    const user = userId ? await findIdpUserById(db, userId) : undefined;
    if (!user) return sendPage(res, 400, pages.invalidLink('sign-in'));
    return sendPage(res, 200, pages.signInByLink({ token, email: user.email }));
  }
  if (req.method !== 'POST') return sendPage(res, 405, pages.error({ title: 'Not allowed', description: 'This page cannot be used this way.' }));

  const form = await readForm(req);
  const userId = await consumeOneTimeToken(db, form.get('token') ?? '', 'sign-in-link');
  const user = userId ? await findIdpUserById(db, userId) : undefined;
  if (!user) return sendPage(res, 400, pages.invalidLink('sign-in'));
  // Signs in without the password and without the throttle: the account's failed sign-ins are
  // forgotten (an attacker's guesses no longer hold its owner up), and the address counts as verified.
  await markEmailVerified(db, user.id);
  await context.guards.accountRecovered(user.email, context.guards.addressOf(req));
  await allowSignInHere(context, res, user.id, AFTER_LINK_SECONDS);
  context.logger.info({ sub: user.subject }, 'sign-in link used: handed to the app to sign in');
  redirect(res, appSignInLink(context.config.publicUrl, user.email, 'sign_in'));
}
