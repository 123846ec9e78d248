import { embeddedList, hasLink, type HalLike } from '../domain/hal';
import { REL } from '../domain/relations';
import { invitationSchema, invitationsCollectionSchema, type Invitation } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

/** GET /invitations?email=: the invitations waiting for this address. */
export async function listInvitationsFor(client: ApiClient, email: string, options: RequestOptions = {}): Promise<Invitation[]> {
  const page = await client.get('/invitations', invitationsCollectionSchema, { ...options, query: { ...options.query, email } });
  return embeddedList(page, 'invitations');
}

/** PATCHes the invitation's 'accept invitation' link; the caller makes its workspace the target. */
export function acceptInvitation(client: ApiClient, invitation: Invitation, options: RequestOptions = {}): Promise<void> {
  return client.follow(invitation, REL.acceptInvitation, { ...options, method: 'PATCH' });
}

/** The invitations list shows up to 99 (spec 002 §9). */
const INVITATIONS_PAGE_SIZE = 99;

export async function listWorkspaceInvitations(client: ApiClient, workspace: HalLike, options: RequestOptions = {}): Promise<Invitation[]> {
  const page = await client.follow(workspace, REL.invitations, { ...options, schema: invitationsCollectionSchema, query: { size: INVITATIONS_PAGE_SIZE, ...options.query } });
  return embeddedList(page, 'invitations');
}

/** POSTs one address to the workspace's 'create invitation'; the page shows the server's message itself. */
export async function createInvitation(client: ApiClient, workspace: HalLike, email: string, options: RequestOptions = {}): Promise<Invitation> {
  const created = await client.follow(workspace, REL.createInvitation, { ...options, method: 'POST', body: { email }, schema: invitationSchema, skipErrorHandler: true, retry: false });
  if (created === undefined) throw new TypeError('The invitation was not returned');
  return created;
}

export function withdrawInvitation(client: ApiClient, invitation: Invitation, options: RequestOptions = {}): Promise<void> {
  return client.follow(invitation, REL.withdrawInvitation, { ...options, method: 'PUT', skipErrorHandler: true });
}

export function deleteInvitation(client: ApiClient, invitation: Invitation, options: RequestOptions = {}): Promise<void> {
  return client.follow(invitation, REL.deleteInvitation, { ...options, method: 'DELETE' });
}

/** The admin toggle: PUT 'add administrator', or DELETE 'withdraw administrator' when the invitee is one. */
export function toggleAdministrator(client: ApiClient, invitation: Invitation, options: RequestOptions = {}): Promise<void> {
  return hasLink(invitation, REL.withdrawAdministrator)
    ? client.follow(invitation, REL.withdrawAdministrator, { ...options, method: 'DELETE' })
    : client.follow(invitation, REL.addAdministrator, { ...options, method: 'PUT' });
}
