import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import { forbidden, notFound } from '../http/errors';
import type { Links } from '../http/hal';
import { isUuid } from '../repositories/ids';
import { findWorkspaceWithRole, type WorkspaceRow } from '../repositories/workspaces';
import type { Caller, WorkspaceLookup } from './caller';
import type { Hrefs } from './hrefs';
import { workspaceLinks } from './links';

/** The one authorisation test: the caller may do what the rendered links offer, and nothing else (403). */
export function requireLink(resourceLinks: Links, rel: string): void {
  if (!Object.hasOwn(resourceLinks, rel)) throw forbidden(`Access is denied: '${rel}' is not available to you`);
}

/** A profile is read and changed only by itself; another id is a 403 whether or not it exists. */
export function requireOwnProfile(caller: Caller, profileId: string): void {
  if (caller.profileId !== profileId) throw forbidden('Access is denied: this is not your profile');
}

export interface WorkspaceAccess {
  workspace: WorkspaceRow;
  role: MemberRole;
  links: Links;
}

/** 404 when the workspace does not exist, 403 when the caller is not a member, else its links for the caller. */
export async function workspaceAccess(db: Db, h: Hrefs, caller: Caller, workspaceId: string): Promise<WorkspaceAccess> {
  const { workspace, role } = takePrefetched(caller, workspaceId) ?? (await lookUp(db, caller, workspaceId));
  if (!workspace) throw notFound(`Workspace ${workspaceId} not found`);
  if (!role) throw forbidden('Access is denied: you are not a member of this workspace');
  return { workspace, role, links: workspaceLinks(h, workspace, role) };
}

/**
 * What the request's own query read with the caller, used once: a second call in the same request
 * (after the route changed a membership, say) reads afresh.
 */
function takePrefetched(caller: Caller, workspaceId: string): WorkspaceLookup | undefined {
  const prefetched = caller.prefetched;
  if (prefetched?.id !== workspaceId) return undefined;
  caller.prefetched = undefined;
  return prefetched;
}

/** The workspace and the caller's role in one query; a caller without a profile is a member of nothing. */
async function lookUp(db: Db, caller: Caller, workspaceId: string): Promise<{ workspace: WorkspaceRow | undefined; role: MemberRole | undefined }> {
  if (!isUuid(workspaceId)) return { workspace: undefined, role: undefined };
  const found = await findWorkspaceWithRole(db, workspaceId, caller.profile ? caller.profileId : undefined);
  return { workspace: found?.workspace, role: found?.role };
}

/** Workspace access that also demands one of its relations. */
export async function requireWorkspaceLink(db: Db, h: Hrefs, caller: Caller, workspaceId: string, rel: string): Promise<WorkspaceAccess> {
  const access = await workspaceAccess(db, h, caller, workspaceId);
  requireLink(access.links, rel);
  return access;
}
