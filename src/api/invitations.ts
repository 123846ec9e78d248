import { embeddedList } from '../domain/hal';
import { REL } from '../domain/relations';
import { invitationsCollectionSchema, type Invitation } from '../domain/resources';
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
