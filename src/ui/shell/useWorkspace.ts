import { useLocation } from 'react-router-dom';
import { workspaceIdFromPath } from '../../domain/landing';
import type { Workspace } from '../../domain/resources';
import { useSession } from './session';

/**
 * The workspace the user is in: the one named by the URL (second path segment), else the
 * invitation just accepted, else the profile's default, else the first one.
 */
export function useCurrentWorkspace(): Workspace | undefined {
  const { workspaces, profile, targetWorkspaceId } = useSession();
  const fromPath = workspaceIdFromPath(useLocation().pathname);
  if (fromPath !== undefined) return workspaces.find((w) => w.id === fromPath);
  const preferred = targetWorkspaceId ?? profile.defaultWorkspace?.id;
  return workspaces.find((w) => w.id === preferred) ?? workspaces[0];
}

/** The workspace named in the URL but not among the user's: not theirs to see. */
export function useUnknownWorkspaceInPath(): boolean {
  const { workspaces } = useSession();
  const fromPath = workspaceIdFromPath(useLocation().pathname);
  return fromPath !== undefined && !workspaces.some((w) => w.id === fromPath);
}
