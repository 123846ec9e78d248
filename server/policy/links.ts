import { isActiveJob } from '../../src/domain/jobs';
import { REL } from '../../src/domain/relations';
import type { MemberRole } from '../db/schema';
import { links, type Links } from '../http/hal';
import { verifiedEmail, type Caller } from './caller';
import type { Hrefs } from './hrefs';

// Every `_links` set of the API is rendered here, from who the caller is and what they may do.
// Routes authorise by asking for a relation in these same sets (see guard.ts), so what the
// client is offered and what the server allows cannot drift apart.

export const isAdminRole = (role: MemberRole): boolean => role === 'owner' || role === 'editor';

/**
 * Minting an API key needs a person with a proven address and a profile to own the key;
 * a client-credentials token (itself an API key) never mints another.
 */
function canMintApiKeys(caller: Caller): boolean {
  return caller.kind === 'user' && caller.principal.emailVerified && caller.profile !== undefined;
}

export function rootLinks(h: Hrefs, caller: Caller): Links {
  const email = verifiedEmail(caller);
  return links({
    [REL.self]: h.root(),
    [REL.profile]: caller.profile ? h.profile(caller.profileId) : null,
    [REL.workspaces]: h.workspaces(),
    [REL.apikeys]: h.apiKeys(),
    [REL.notifications]: h.notifications(),
    [REL.invitations]: email ? h.invitations(email) : null,
    [REL.newApiKey]: canMintApiKeys(caller) ? h.apiKeys() : null,
    // The first sign-in creates the profile of the token's own subject; an API key signs in as nobody.
    [REL.login]: caller.kind === 'user' ? h.profileLogin(caller.principal.subject) : null,
  });
}

/** A profile is seen only by itself; 'new workspace' marks the owner (spec 000 section 6). */
export function profileLinks(h: Hrefs, caller: Caller, profile: { id: string; can_create_workspaces: boolean }): Links {
  if (profile.id !== caller.profileId) return {};
  return links({
    [REL.self]: h.profile(profile.id),
    [REL.updateProfile]: h.profile(profile.id),
    [REL.workspaces]: h.workspaces(),
    [REL.newWorkspace]: profile.can_create_workspaces ? h.workspaces() : null,
  });
}

/**
 * Reads (channels, questions, feed, search, tags, members, invitations) for every member; the Lab
 * and the workspace's administration (jobs, inviting, 'update delete workspace') for owners and
 * editors only. A relation is offered only once a route answers it: pipelines, data stores and
 * data components arrive with the Lab.
 */
export function workspaceLinks(h: Hrefs, workspace: { id: string }, role: MemberRole): Links {
  const admin = isAdminRole(role);
  const part = (name: string) => h.workspacePart(workspace.id, name);
  return links({
    [REL.self]: h.workspace(workspace.id),
    [REL.channels]: part('channels'),
    [REL.questions]: part('questions'),
    [REL.feed]: part('feed'),
    [REL.search]: part('search'),
    [REL.tags]: part('tags'),
    [REL.members]: part('members'),
    [REL.invitations]: part('invitations'),
    [REL.createInvitation]: admin && part('invitations'),
    [REL.jobs]: admin && part('jobs'),
    [REL.updateDeleteWorkspace]: admin && h.workspace(workspace.id),
  });
}

/** Jobs belong to the Lab: only the workspace's admins see them, their logs, and may delete them. */
export function jobLinks(h: Hrefs, job: { id: string; status: string }, role: MemberRole): Links {
  const admin = isAdminRole(role);
  return links({
    [REL.self]: admin && h.job(job.id),
    [REL.logs]: admin && h.jobLogs(job.id),
    [REL.deleteJob]: admin && !isActiveJob(job) && h.job(job.id),
  });
}

/** Every member reads a dataset; its 'data' is offered while it carries data to give. */
export function datasetLinks(h: Hrefs, dataset: { id: string; raw_data: string | null }): Links {
  return links({
    [REL.self]: h.dataset(dataset.id),
    [REL.data]: dataset.raw_data !== null && h.datasetData(dataset.id),
  });
}

/** A key is visible and changeable by the profile that owns it, and by nobody else. */
export function apiKeyLinks(h: Hrefs, caller: Caller, key: { id: string; profile_id: string }): Links {
  if (key.profile_id !== caller.profileId) return {};
  return links({
    [REL.self]: h.apiKey(key.id),
    [REL.updateApiKey]: h.apiKey(key.id),
    [REL.deleteApiKey]: h.apiKey(key.id),
  });
}

/** The draft's only link saves it; it is offered only to callers whose root carries 'new apikey'. */
export function apiKeyDraftLinks(h: Hrefs, caller: Caller, id: string): Links {
  return links({ [REL.createApiKey]: canMintApiKeys(caller) && h.apiKey(id) });
}

export function notificationLinks(h: Hrefs, caller: Caller, notification: { id: string; profile_id: string }): Links {
  if (notification.profile_id !== caller.profileId) return {};
  return links({ [REL.self]: h.notification(notification.id) });
}

/**
 * The invitee (proven by their verified address) may read it and, once signed in, accept it while
 * it is pending — and again once accepted, which answers it unchanged, so a repeated click is
 * harmless. Members of the workspace may read it.
 */
export function invitationLinks(
  h: Hrefs,
  caller: Caller,
  invitation: { id: string; email: string; status: string },
  callerRole: MemberRole | undefined,
): Links {
  const invitee = verifiedEmail(caller) === invitation.email.trim().toLowerCase();
  const acceptable = invitation.status === 'PENDING' || invitation.status === 'ACCEPTED';
  return links({
    [REL.self]: (invitee || callerRole !== undefined) && h.invitation(invitation.id),
    [REL.acceptInvitation]: invitee && caller.profile !== undefined && acceptable && h.invitation(invitation.id),
  });
}
