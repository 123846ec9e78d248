import { sendSignUpAttemptMail, sendVerificationMail } from './account-mail';
import type { IdentityContext } from './context';
import { createIdpUser, findIdpUserById } from './users';

interface SignUp {
  name: string;
  email: string;
  password: string;
}

/**
 * Creates the account and mails its verification link — or, when the address already has an
 * account, leaves it untouched and tells its owner. The caller answers "check your email" either
 * way, and both ways cost the same: one password hash (createIdpUser hashes before it looks the
 * address up), one lookup, one mail. Nothing in the answer or its timing says which it was.
 * Returns the new account's id, for the caller to let this browser in once it is verified; nothing
 * when the address had an account.
 */
export async function registerAccount(context: IdentityContext, input: SignUp): Promise<string | undefined> {
  const created = await createIdpUser(context.db, { ...input, emailVerified: false });
  const user = await findIdpUserById(context.db, created.id);
  if (!user) throw new Error('idp user vanished after sign-up');
  if (created.created) {
    await sendVerificationMail(context, user);
    context.logger.info({ sub: created.subject }, 'signed up');
    return user.id;
  }
  await sendSignUpAttemptMail(context, user);
  context.logger.info({ sub: created.subject }, 'sign-up with an address that has an account: its owner was told');
  return undefined;
}
