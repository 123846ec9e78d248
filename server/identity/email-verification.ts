import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { consumeOneTimeToken, issueOneTimeToken, ownerOfOneTimeToken, retireOneTimeTokens } from './one-time-tokens';
import { findIdpUserById, markEmailVerified } from './users';

/** An interaction id as oidc-provider makes them; anything else in the link is ignored. */
const INTERACTION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The link of the verification mail (GET: it is opened from a mail client). Opening it again, or a
 * mail scanner having opened it first, still ends on "verified" rather than on an error. The first
 * opening of a link that names the sign-in it came from offers to finish that sign-in: a button
 * posting a fresh sign-in-link token to it, which only the browser holding that sign-in's cookie
 * can use (a scanner or a forwarded mail ends on the sign-in page instead).
 */
export async function handleVerifyEmail(context: IdentityContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const { db, pages } = context;
  if (req.method !== 'GET') return sendPage(res, 405, pages.error({ title: 'Not allowed', description: 'This page cannot be used this way.' }));
  const token = query.get('token') ?? '';
  const consumedBy = await consumeOneTimeToken(db, token, 'verify-email');
  if (consumedBy) {
    await markEmailVerified(db, consumedBy);
    context.logger.info({ userId: consumedBy }, 'email verified');
  }
  const userId = consumedBy ?? (await ownerOfOneTimeToken(db, token, 'verify-email'));
  const user = userId ? await findIdpUserById(db, userId) : undefined;
  if (!user?.emailVerified) return sendPage(res, 400, pages.invalidLink('verification'));
  const interaction = query.get('interaction') ?? '';
  if (consumedBy && INTERACTION_ID.test(interaction)) {
    await retireOneTimeTokens(db, user.id, 'sign-in-link');
    const token = await issueOneTimeToken(db, user.id, 'sign-in-link');
    return sendPage(res, 200, pages.emailVerified(user.email, { uid: interaction, token }));
  }
  sendPage(res, 200, pages.emailVerified(user.email));
}
