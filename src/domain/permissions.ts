import { isFeatureEnabled, type FeatureSwitches } from './features';
import { hasLink, type HalLike } from './hal';
import { REL } from './relations';

// Roles do not exist as names: every permission is a link the server chose to offer
// (spec 000 section 6). These functions only read links and feature switches.

/** The owner's profile carries 'new workspace'. */
export function isOwner(profile: HalLike): boolean {
  return hasLink(profile, REL.newWorkspace);
}

/** Owner or editor of the workspace: it carries 'update delete workspace'. */
export function isWorkspaceAdmin(workspace: HalLike): boolean {
  return hasLink(workspace, REL.updateDeleteWorkspace);
}

export function canCreateApiKey(root: HalLike): boolean {
  return hasLink(root, REL.newApiKey);
}

export function canSwitchToLab(workspace: HalLike, features: FeatureSwitches): boolean {
  return isWorkspaceAdmin(workspace) && isFeatureEnabled(features, 'APP');
}

export function canManageAccount(profile: HalLike, features: FeatureSwitches): boolean {
  return isOwner(profile) && isFeatureEnabled(features, 'MANAGE_ACCOUNT');
}

/**
 * The Invite icon and the workspace menu's Invitations item: the workspace offers 'create
 * invitation' (admins; the server decides) and the profile has not switched INVITATIONS off.
 */
export function canInvite(workspace: HalLike, features: FeatureSwitches): boolean {
  return hasLink(workspace, REL.createInvitation) && isFeatureEnabled(features, 'INVITATIONS');
}

/** The workspace menu's Members entry and page: every member is offered 'members' today, but the server decides. */
export function showMembers(workspace: HalLike): boolean {
  return hasLink(workspace, REL.members);
}

export function showTasksEntry(workspace: HalLike): boolean {
  return isWorkspaceAdmin(workspace);
}

export function showWorkspaceSettings(workspace: HalLike): boolean {
  return isWorkspaceAdmin(workspace);
}

export function canCreateWorkspace(profile: HalLike): boolean {
  return isOwner(profile);
}

/** Switch Workspace appears only when there is somewhere else to go. */
export function canSwitchWorkspace(workspaceCount: number): boolean {
  return workspaceCount > 1;
}
