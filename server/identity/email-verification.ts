import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IdentityContext } from './context';
import { sendPage } from './html';
import { consumeOneTimeToken, ownerOfOneTimeToken } from './one-time-tokens';
import { findIdpUserById, markEmailVerified } from './users';

/**
 * The link of the verification mail (GET: it is opened from a mail client). Opening it again, or a
 * mail scanner having opened it first, still ends on "verified" rather than on an error.
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
  sendPage(res, 200, pages.emailVerified(user.email));
}
