import type { IdentityContext } from './context';
import { issuedRecently, issueOneTimeToken, retireOneTimeTokens } from './one-time-tokens';
import { findIdpUserByEmail, type IdpUser } from './users';

/** Auth0's answer to a password-reset request, word for word; the SPA shows it as it comes. */
export const RESET_REQUESTED_MESSAGE = "We've just sent you an email to reset your password.";

// One reset mail per address per minute: the endpoint is public, so it must not become a mail cannon.
const RESET_MAIL_INTERVAL_SECONDS = 60;

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

async function deliver(context: IdentityContext, mail: { to: string; subject: string; text: string }): Promise<void> {
  try {
    await context.mailer.send(mail);
  } catch (error) {
    // The account change has happened; a mail failure must not turn it into an error page.
    context.logger.error({ err: error, to: mail.to, subject: mail.subject }, 'mail could not be sent');
  }
}
