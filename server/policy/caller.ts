import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import type { Principal } from '../http/auth';
import { unauthorized } from '../http/errors';
import { findCaller, type CallerKey, type WithCaller } from '../repositories/callers';
import type { ProfileRow } from '../repositories/profiles';
import type { WorkspaceRow } from '../repositories/workspaces';

/** A workspace read together with the caller, and the caller's role in it (see workspaceAccess). */
export interface WorkspaceLookup {
  id: string;
  workspace: WorkspaceRow | undefined;
  role: MemberRole | undefined;
}

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
  /**
   * The workspace the request's path names, read in the same query as the profile so that a
   * workspace route needs no second round trip to authorise. Used once (see workspaceAccess).
   */
  prefetched: WorkspaceLookup | undefined;
}

/**
 * Resolves the caller in one query, every request: whether the profile and the API key still
 * exist is never cached, so deleting a key stops its tokens at once. `workspaceId`, when the path
 * names one, is read in the same query.
 */
export async function resolveCaller(db: Db, principal: Principal, workspaceId?: string): Promise<Caller> {
  return (await resolveCallerWith(principal, workspaceId, async (key) => ({ caller: await findCaller(db, key, workspaceId), rows: [] }))).caller;
}

/**
 * The caller, read by `read` (findCaller, or a read that carries the caller: readWithCaller) with
 * whatever else that statement read. A client token whose API key is gone is refused here (401).
 */
export async function resolveCallerWith<R>(principal: Principal, workspaceId: string | undefined, read: (key: CallerKey) => Promise<WithCaller<R>>): Promise<{ caller: Caller; rows: R[] }> {
  if (principal.kind === 'user') {
    const { caller: row, rows } = await read({ profileId: principal.subject });
    if (row) requireCurrentToken(principal, row.profile);
    const caller: Caller = {
      kind: 'user',
      principal,
      profileId: principal.subject,
      profile: row?.profile,
      apiKeyId: undefined,
      prefetched: lookupOf(workspaceId, row?.workspace),
    };
    return { caller, rows };
  }
  // A token outlives nothing: once its key is deleted the token stops working, even before it expires.
  const { caller: row, rows } = principal.clientId ? await read({ clientId: principal.clientId }) : { caller: undefined, rows: [] };
  if (!row) throw unauthorized('The API key of this token no longer exists');
  const caller: Caller = { kind: 'client', principal, profileId: row.profile.id, profile: row.profile, apiKeyId: row.apiKeyId, prefetched: lookupOf(workspaceId, row.workspace) };
  return { caller, rows };
}

/**
 * A user token issued before the account's credentials last changed (a password reset, a confirmed
 * email change) is refused like an expired one (401): whoever held the old password or mailbox loses
 * the access it gave them at once, not when the token runs out. The change time is read with the
 * profile, in the request's one statement. `iat` counts whole seconds, so the change is compared
 * truncated to its second: the sign-in that follows a reset within the same second keeps working
 * (a token issued earlier in that same second does too — under a second's window, which whole-second
 * `iat`s cannot close without refusing that sign-in). A client token (an API key) is not the
 * password's: it ends with its key, deleted on the API Keys page.
 */
export function requireCurrentToken(principal: Principal, profile: Pick<ProfileRow, 'credentials_changed_at'>): void {
  const changed = profile.credentials_changed_at;
  if (principal.kind !== 'user' || changed === null) return;
  if (principal.issuedAt === undefined || principal.issuedAt < Math.floor(changed.getTime() / 1000)) {
    throw unauthorized('Invalid or expired access token');
  }
}

function lookupOf(id: string | undefined, found: { row: WorkspaceRow | undefined; role: MemberRole | undefined } | undefined): WorkspaceLookup | undefined {
  // Without a profile row the join found nothing, not even the workspace: leave it to workspaceAccess.
  return id === undefined || found === undefined ? undefined : { id, workspace: found.row, role: found.role };
}

/**
 * Whether the caller may create workspaces and run anything on the platform: start jobs, deploy,
 * check a data store's connection (issue 36). Only an account with a verified email may, so that
 * nothing the sandbox has to hold back can be started from an address nobody answers for. A user
 * token says so in `email_verified`; a client-credentials token (an API key) carries its owner's
 * `email_verified`, stamped by the provider when the token is issued — and only a verified person
 * mints a key at all (links.ts, canMintApiKeys). Verification never lapses: an email change takes
 * effect only once the new address confirms it.
 */
export function mayRun(caller: Caller): boolean {
  return caller.principal.emailVerified;
}

/**
 * Why a caller who may not run things (mayRun) is refused, in the words of the SPA's /notverified
 * page, where such a caller is sent: the step that lets them.
 */
export const VERIFY_EMAIL_TO_RUN =
  'Please verify your email first: only accounts with a verified email create workspaces or run jobs. Open the link in the email we sent you, then sign in again.';

/**
 * The address the caller has proven they own: a user token's verified email. An API key proves
 * no mailbox, so it cannot claim invitations.
 */
export function verifiedEmail(caller: Caller): string | undefined {
  if (caller.kind !== 'user' || !caller.principal.emailVerified || !caller.principal.email) return undefined;
  return caller.principal.email.trim().toLowerCase();
}
