import type { IdentityContext } from './context';
import type { Mail, Mailer } from './mailer';
import { issuedRecently, issueOneTimeToken, retireOneTimeTokens, SIGN_IN_LINK_TTL_SECONDS } from './one-time-tokens';
import { findIdpUserByEmail, type IdpUser } from './users';

/** Auth0's answer to a password-reset request, word for word; the SPA shows it as it comes. */
export const RESET_REQUESTED_MESSAGE = "We've just sent you an email to reset your password.";

// One reset mail per address per minute: the endpoint is public, so it must not become a mail cannon.
const RESET_MAIL_INTERVAL_SECONDS = 60;

/**
 * The link verifies the address and hands the person to the app's sign-in, wherever it is opened;
 * in the browser that signed up, that sign-in needs no password (browser-sign-in.ts).
 */
export async function sendVerificationMail(context: IdentityContext, user: Pick<IdpUser, 'id' | 'email' | 'name'>): Promise<void> {
  const token = await issueOneTimeToken(context.db, user.id, 'verify-email');
  const link = `${context.issuer}verify-email?token=${token}`;
  const app = context.config.env.APP_TITLE;
  await deliver(context, {
    to: user.email,
    subject: `Verify your email address for ${app}`,
    text: `Hello ${user.name},\n\nplease confirm that this is your email address by opening this link:\n\n${link}\n\nThe link is valid for 24 hours. If you did not sign up for ${app}, ignore this message.\n`,
  });
}

/** The answer to a resend request, the same whether or not the address has an account waiting. */
export const VERIFICATION_RESENT_MESSAGE = 'If an account with this address is waiting for verification, we have sent it a new link. Open the link in that email.';

/**
 * A fresh verification link for an account that is not verified yet; links mailed before stop
 * working, so only the newest mail counts. Nothing happens for unknown or verified addresses, and
 * the caller answers the same either way.
 */
export async function resendVerificationMail(context: IdentityContext, email: string): Promise<void> {
  const user = await findIdpUserByEmail(context.db, email);
  if (!user || user.emailVerified) return;
  await retireOneTimeTokens(context.db, user.id, 'verify-email');
  await sendVerificationMail(context, user);
}

/**
 * Sends a reset link when the address has an account. The caller answers the same whatever happens
 * here, so nobody learns from it which addresses have accounts.
 */
export async function requestPasswordReset(context: IdentityContext, email: string): Promise<void> {
  const user = await findIdpUserByEmail(context.db, email);
  if (!user) return;
  if (await issuedRecently(context.db, user.id, 'reset-password', RESET_MAIL_INTERVAL_SECONDS)) return;
  const token = await issueOneTimeToken(context.db, user.id, 'reset-password');
  const link = `${context.issuer}reset-password?token=${token}`;
  const app = context.config.env.APP_TITLE;
  await deliver(context, {
    to: user.email,
    subject: `Reset your ${app} password`,
    text: `Hello ${user.name},\n\nsomebody asked to reset the password of your ${app} account. To choose a new password, open this link:\n\n${link}\n\nThe link is valid for 24 hours and works once. If you did not ask for this, ignore this message: your password stays as it is.\n`,
  });
}

/**
 * Somebody signed up with an address that already has an account. The page answered exactly as
 * for a new account; the owner hears of it here, with the ways back in if it was them.
 */
export async function sendSignUpAttemptMail(context: IdentityContext, user: Pick<IdpUser, 'email' | 'name' | 'emailVerified'>): Promise<void> {
  const app = context.config.env.APP_TITLE;
  const unverified = user.emailVerified
    ? ''
    : `Your address is not verified yet. For a new verification link, open:\n\n${context.issuer}verify/resend\n\n`;
  await deliver(context, {
    to: user.email,
    subject: `Somebody tried to sign up for ${app} with your address`,
    text: `Hello ${user.name},\n\nsomebody tried to create a new ${app} account with this email address. You already have an account, so nothing was created and nothing about your account changed.\n\nIf it was you, sign in instead:\n\n${context.config.publicUrl}\n\nForgot your password? Choose "Forgot password?" on the sign-in page.\n\n${unverified}If it was not you, ignore this message: nobody can use your account without your password.\n`,
  });
}

/** The answer to a sign-in link request, the same whether or not the address has an account. */
export const SIGN_IN_LINK_SENT_MESSAGE = `If this address has an account, we have sent it a sign-in link. Open it within ${SIGN_IN_LINK_TTL_SECONDS / 60} minutes, on this device or another.`;

/**
 * A one-time link that signs the owner in without the password, in whichever browser opens it
 * (the mailbox is the proof, as for a password reset): the way back in for an owner held up by
 * somebody else's guesses.
 */
export async function sendSignInLink(context: IdentityContext, email: string): Promise<void> {
  const user = await findIdpUserByEmail(context.db, email);
  if (!user) return;
  await retireOneTimeTokens(context.db, user.id, 'sign-in-link');
  const token = await issueOneTimeToken(context.db, user.id, 'sign-in-link');
  const link = `${context.issuer}sign-in-link?token=${token}`;
  const app = context.config.env.APP_TITLE;
  await deliver(context, {
    to: user.email,
    subject: `Your ${app} sign-in link`,
    text: `Hello ${user.name},\n\nsomebody asked for a link to sign in to your ${app} account without the password. To sign in, open this link:\n\n${link}\n\nThe link works once, within ${SIGN_IN_LINK_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this message. If you see it often, somebody is guessing your password: choose a long one nobody could guess.\n`,
  });
}

/** Sends, or logs why not: whatever the mail was about has happened, and must not end in an error page. */
export async function deliver(context: Pick<IdentityContext, 'logger'> & { mailer: Pick<Mailer, 'send'> }, mail: Mail): Promise<void> {
  try {
    await context.mailer.send(mail);
  } catch (error) {
    // The account change has happened; a mail failure must not turn it into an error page.
    context.logger.error({ err: error, to: mail.to, subject: mail.subject }, 'mail could not be sent');
  }
}
