// Links sent by mail hand the person over to the app, which starts a fresh sign-in (issue 38).
// A mailed link cannot continue a sign-in begun elsewhere: the SPA's login transaction (state,
// PKCE verifier) lives in the storage of the tab that began it, so a link opened in another tab,
// browser or device must begin its own. The server builds these links; the app reads them.

/** What the sign-in form says on arrival from a link: 'sign_in' says nothing, it only signs in. */
export const EMAIL_LINK_NOTICES = ['email_verified', 'password_changed', 'sign_in'] as const;
export type EmailLinkNotice = (typeof EMAIL_LINK_NOTICES)[number];

/** The app's query parameters (`email` is the spec's login hint, 000 §2.1). */
const EMAIL_LINK_PARAM = { email: 'email', notice: 'notice', invitation: 'invitation' } as const;

/**
 * The same, as the app passes them to the identity provider. Auth0 hands `ext-` parameters of an
 * authorization request to its login page templates, so a hosted provider can say the same.
 */
export const PROVIDER_PARAM = { notice: 'ext-notice', invitation: 'ext-invitation' } as const;

export type EmailLink = { readonly notice: EmailLinkNotice; readonly invitation?: string | undefined };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CALLBACK_PARAMS = ['code', 'state', 'error', 'error_description'] as const;

export const isEmailLinkNotice = (value: unknown): value is EmailLinkNotice => typeof value === 'string' && (EMAIL_LINK_NOTICES as readonly string[]).includes(value);
export const isInvitationId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * The link the visitor arrived by, read from the query: a known notice, or an invitation (whose
 * notice is 'sign_in': the provider says the invitation itself). Anything else is no link.
 */
export function emailLinkOf(search: string): EmailLink | undefined {
  const params = new URLSearchParams(search);
  const invitation = params.get(EMAIL_LINK_PARAM.invitation);
  const notice = params.get(EMAIL_LINK_PARAM.notice);
  if (isInvitationId(invitation)) return { notice: isEmailLinkNotice(notice) ? notice : 'sign_in', invitation: invitation.toLowerCase() };
  return isEmailLinkNotice(notice) ? { notice } : undefined;
}

/** `target` (a path with its query and hash) without the parameters named. */
function withoutParams(target: string, names: readonly string[]): string {
  const url = new URL(target, 'http://app.invalid');
  if (!names.some((name) => url.searchParams.has(name))) return target;
  for (const name of names) url.searchParams.delete(name);
  const search = url.searchParams.toString();
  const kept = `${url.pathname}${search === '' ? '' : `?${search}`}${url.hash}`;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? `${new URL(target).origin}${kept}` : kept;
}

/** Where the person goes once signed in: the link's own parameters have done their work. */
export const withoutEmailLinkParams = (target: string): string => withoutParams(target, Object.values(EMAIL_LINK_PARAM));

/** The URL without the provider's answer (a code or an error, and its state): never kept, never shown. */
export const withoutCallbackParams = (target: string): string => withoutParams(target, CALLBACK_PARAMS);

/** Whether the URL carries the provider's answer, as the SDK recognises it. */
export function hasCallbackParams(search: string): boolean {
  const params = new URLSearchParams(search);
  return (params.has('code') || params.has('error')) && params.has('state');
}

/** The app's address that signs in `email` afresh, saying `notice` (built by the identity provider's pages). */
export function appSignInLink(appUrl: string, email: string, notice: EmailLinkNotice): string {
  const url = new URL(`${appUrl.replace(/\/+$/, '')}/`);
  url.searchParams.set(EMAIL_LINK_PARAM.email, email);
  url.searchParams.set(EMAIL_LINK_PARAM.notice, notice);
  return url.toString();
}

/** The invitation mail's link: the workspace, the invited address as the login hint, and the invitation. */
export function invitationLink(appUrl: string, workspaceId: string, email: string, invitationId: string): string {
  const url = new URL(`${appUrl.replace(/\/+$/, '')}/l/${encodeURIComponent(workspaceId)}`);
  url.searchParams.set(EMAIL_LINK_PARAM.email, email);
  url.searchParams.set(EMAIL_LINK_PARAM.invitation, invitationId);
  return url.toString();
}
