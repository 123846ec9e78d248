import type { Db } from '../db/database';
import type { Principal } from '../http/auth';
import { unauthorized } from '../http/errors';
import { findProfile, type ProfileRow } from '../repositories/profiles';

/**
 * The profile a request acts for. A user token acts for the profile whose id is its subject (which
 * does not exist before the first login); a client-credentials token (an API key) acts for the
 * profile that owns the key.
 */
export interface Caller {
  kind: 'user' | 'client';
  principal: Principal;
  profileId: string;
  profile: ProfileRow | undefined;
  /** the API key a client token was issued for */
  apiKeyId: string | undefined;
}

export async function resolveCaller(db: Db, principal: Principal): Promise<Caller> {
  if (principal.kind === 'user') {
    return { kind: 'user', principal, profileId: principal.subject, profile: await findProfile(db, principal.subject), apiKeyId: undefined };
  }
  const key = principal.clientId
    ? await db.selectFrom('api_keys').select(['id', 'profile_id']).where('client_id', '=', principal.clientId).executeTakeFirst()
    : undefined;
  // A token outlives nothing: once its key is deleted the token stops working, even before it expires.
  if (!key) throw unauthorized('The API key of this token no longer exists');
  const profile = await findProfile(db, key.profile_id);
  if (!profile) throw unauthorized('The API key of this token no longer exists');
  return { kind: 'client', principal, profileId: profile.id, profile, apiKeyId: key.id };
}

/**
 * The address the caller has proven they own: a user token's verified email. An API key proves
 * no mailbox, so it cannot claim invitations.
 */
export function verifiedEmail(caller: Caller): string | undefined {
  if (caller.kind !== 'user' || !caller.principal.emailVerified || !caller.principal.email) return undefined;
  return caller.principal.email.trim().toLowerCase();
}
